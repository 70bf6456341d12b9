/**
 * World points to window points (CSS px) through the view's camera, as it
 * was for the frame just drawn, so the HUD's marks sit on what the frame
 * shows. Reuses its vectors: no garbage per call.
 */
import * as THREE from 'three';
import type { Vec3 } from '../../../../shared/sim/types';

/** One world point on the window. Reused by the next `project` call: copy what you keep. */
export interface Projected {
  /** Window position, CSS px (meaningful for `inFront` points). */
  x: number;
  y: number;
  /** In front of the camera. */
  inFront: boolean;
  /** In front of the camera and inside the window. */
  onScreen: boolean;
  /** Distance in front of the camera along its view axis (units; negative behind). */
  depth: number;
  /** Direction from the window's centre towards the point (y down), for an arrow when it is off screen; unit length. */
  dirX: number;
  dirY: number;
}

export class Projector {
  private camera: THREE.PerspectiveCamera | null = null;
  private width = 1;
  private height = 1;
  private readonly v = new THREE.Vector3();
  private readonly out: Projected = { x: 0, y: 0, inFront: false, onScreen: false, depth: 0, dirX: 0, dirY: 1 };

  /** The camera of the frame just drawn and the window's size in CSS px. */
  set(camera: THREE.PerspectiveCamera, width: number, height: number): void {
    this.camera = camera;
    this.width = Math.max(1, width);
    this.height = Math.max(1, height);
  }

  get w(): number {
    return this.width;
  }
  get h(): number {
    return this.height;
  }

  /** Pixels on the window per unit of size at `depth` units in front of the camera. */
  pixelsPerUnit(depth: number): number {
    const fov = this.camera?.fov ?? 70;
    return this.height / 2 / Math.tan((fov * Math.PI) / 360) / Math.max(0.5, depth);
  }

  project(p: Vec3): Projected {
    const o = this.out;
    const cam = this.camera;
    if (!cam) {
      o.inFront = o.onScreen = false;
      return o;
    }
    const v = this.v.set(p.x, p.y, p.z).applyMatrix4(cam.matrixWorldInverse);
    o.depth = -v.z;
    o.inFront = o.depth > cam.near;
    // Camera space: x right, y up; the window's y points down.
    const len = Math.hypot(v.x, v.y);
    o.dirX = len > 1e-9 ? v.x / len : 0;
    o.dirY = len > 1e-9 ? -v.y / len : 1;
    if (!o.inFront) {
      o.onScreen = false;
      return o;
    }
    v.applyMatrix4(cam.projectionMatrix);
    o.x = ((v.x + 1) / 2) * this.width;
    o.y = ((1 - v.y) / 2) * this.height;
    o.onScreen = o.x >= 0 && o.x <= this.width && o.y >= 0 && o.y <= this.height;
    return o;
  }
}
