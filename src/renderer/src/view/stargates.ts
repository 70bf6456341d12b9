/**
 * The stargates of the solar system we are in (issue 29): each a glowing
 * ring of the gate's radius facing the system's centre (stargate.ts
 * gateAxis), a faint disc across it where a ship goes through, and the name
 * of the system it leads to on a sprite of constant size above it. Built
 * when the system changes (a jump), not every frame.
 */
import * as THREE from 'three';
import { GATE_RADIUS, gateAxis } from '../../../shared/game/stargate';
import type { WireStargate } from '../../../shared/wire/types';

const Z = new THREE.Vector3(0, 0, 1);
/** The name's sprite at distance 1 (sizeAttenuation off). */
const LABEL_SCALE = { x: 0.3, y: 0.075 };

export class Stargates {
  private readonly group = new THREE.Group();
  private readonly ringGeometry = new THREE.TorusGeometry(GATE_RADIUS, 2.5, 10, 64);
  private readonly ringMaterial = new THREE.MeshBasicMaterial({ color: 0x60e0ff });
  private readonly discGeometry = new THREE.CircleGeometry(GATE_RADIUS - 2, 48);
  private readonly discMaterial = new THREE.MeshBasicMaterial({ color: 0x2080ff, transparent: true, opacity: 0.18, side: THREE.DoubleSide, depthWrite: false });
  private readonly labels: THREE.SpriteMaterial[] = [];
  private readonly textures: THREE.Texture[] = [];
  /** What is built now (the system's name and gates), to rebuild only on a change. */
  private built = '';

  constructor(scene: THREE.Scene) {
    scene.add(this.group);
  }

  /** The systems the gates drawn now lead to, in the system's order. */
  get destinations(): string[] {
    return this.group.children.map((g) => g.name.slice('gate:'.length));
  }

  /** Shows `gates` of system `name` (none: no system, no gates). */
  show(name: string | null, gates: readonly WireStargate[]): void {
    const key = name === null ? '' : `${name}|${gates.map((g) => `${g.to}@${g.pos.x},${g.pos.y},${g.pos.z}`).join(';')}`;
    if (key === this.built) return;
    this.built = key;
    this.clear();
    for (const g of gates) {
      const gate = new THREE.Group();
      gate.position.set(g.pos.x, g.pos.y, g.pos.z);
      const axis = gateAxis(g.pos);
      gate.quaternion.setFromUnitVectors(Z, new THREE.Vector3(axis.x, axis.y, axis.z));
      gate.add(new THREE.Mesh(this.ringGeometry, this.ringMaterial), new THREE.Mesh(this.discGeometry, this.discMaterial));
      const label = this.label(g.to);
      label.position.set(0, GATE_RADIUS + 14, 0);
      gate.add(label);
      gate.name = `gate:${g.to}`;
      this.group.add(gate);
    }
  }

  private label(text: string): THREE.Sprite {
    const canvas = document.createElement('canvas');
    canvas.width = 256;
    canvas.height = 64;
    const g = canvas.getContext('2d');
    if (g) {
      g.font = 'bold 30px system-ui, sans-serif';
      g.textAlign = 'center';
      g.textBaseline = 'middle';
      g.fillStyle = 'rgba(0, 0, 0, 0.45)';
      g.fillRect(0, 8, 256, 48);
      g.fillStyle = '#9fe8ff';
      g.fillText(`→ ${text}`, 128, 32);
    }
    const texture = new THREE.CanvasTexture(canvas);
    const material = new THREE.SpriteMaterial({ map: texture, depthTest: false, transparent: true, sizeAttenuation: false });
    this.textures.push(texture);
    this.labels.push(material);
    const sprite = new THREE.Sprite(material);
    sprite.renderOrder = 10;
    sprite.scale.set(LABEL_SCALE.x, LABEL_SCALE.y, 1);
    return sprite;
  }

  private clear(): void {
    this.group.clear();
    for (const d of [...this.labels.splice(0), ...this.textures.splice(0)]) d.dispose();
  }

  dispose(): void {
    this.clear();
    this.group.removeFromParent();
    for (const d of [this.ringGeometry, this.ringMaterial, this.discGeometry, this.discMaterial]) d.dispose();
  }
}
