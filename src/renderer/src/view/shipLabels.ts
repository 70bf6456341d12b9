/**
 * The tag above another player's ship: its name and two bars, shield and
 * hull, drawn into a small canvas texture on a sprite of constant size on
 * screen. Redrawn only when the name changes or a bar moves by a step.
 * `declutter` hides the tags of ships beyond reading range and, where tags
 * would overlap on screen, keeps the nearer ship's; the targeted ship has
 * none, since the combat HUD's brackets (or its edge arrow) already show its
 * name, shield and hull.
 */
import * as THREE from 'three';

/** Beyond this distance from the camera a tag is hidden (units). */
export const TAG_RANGE = 700;
/** Sprite scale at distance 1 (sizeAttenuation off): about 7 % of the view's height. */
const TAG_SCALE = { x: 0.28, y: 0.105 };
/** The part of the view's height (in NDC, 2 = the whole height) one unit of sprite scale covers. */
const NDC_PER_SCALE = 1.43;
/** Bars are redrawn when they move by this share of their length. */
const BAR_STEP = 0.05;

export interface ShipTag {
  sprite: THREE.Sprite;
  /** What the texture shows now (name, shield and hull steps). */
  drawn: string;
}

export function makeTag(): ShipTag {
  const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ depthTest: false, transparent: true, sizeAttenuation: false }));
  sprite.renderOrder = 10;
  sprite.scale.set(TAG_SCALE.x, TAG_SCALE.y, 1);
  return { sprite, drawn: '' };
}

/** Shows `name` with `shield` and `hull` (each 0..1) on the tag, redrawing only what changed by a step. */
export function setTag(tag: ShipTag, name: string, shield: number, hull: number): void {
  const s = Math.round(clamp01(shield) / BAR_STEP);
  const h = Math.round(clamp01(hull) / BAR_STEP);
  const key = `${name}\u0000${s}\u0000${h}`;
  if (tag.drawn === key) return;
  tag.drawn = key;
  const canvas = document.createElement('canvas');
  canvas.width = 256;
  canvas.height = 96;
  const ctx = canvas.getContext('2d');
  if (ctx) {
    ctx.font = 'bold 34px ui-monospace, "DejaVu Sans Mono", monospace';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.lineWidth = 5;
    ctx.strokeStyle = 'rgba(0, 0, 8, 0.9)';
    ctx.strokeText(name, 128, 28, 248);
    ctx.fillStyle = '#ffe6c8';
    ctx.fillText(name, 128, 28, 248);
    bar(ctx, 62, s * BAR_STEP, '#5ab4ff');
    bar(ctx, 80, h * BAR_STEP, h * BAR_STEP > 0.5 ? '#6fe07a' : h * BAR_STEP > 0.25 ? '#f0c040' : '#ff5a4a');
  }
  tag.sprite.material.map?.dispose();
  tag.sprite.material.map = new THREE.CanvasTexture(canvas);
  tag.sprite.material.needsUpdate = true;
}

export function disposeTag(tag: ShipTag): void {
  tag.sprite.material.map?.dispose();
  tag.sprite.material.dispose();
}

/** One tag to place: where it is in normalised device coordinates and how far its ship is. */
export interface TagPlace {
  tag: ShipTag;
  /** The ship's slot. */
  slot: number;
  /** NDC x, y; z > 1 or < -1: behind or beyond the camera's range. */
  ndc: THREE.Vector3;
  distance: number;
}

/**
 * Hides the tags too far to read or behind the camera, and where two would
 * overlap keeps the nearer ship's (nearest first). The tag of `targetSlot`
 * (-1: no target) is hidden and takes no room: the target's brackets carry
 * its name and bars. `aspect`: the view's width / height.
 */
export function declutter(places: TagPlace[], aspect: number, targetSlot = -1): void {
  places.sort((a, b) => a.distance - b.distance);
  const w = TAG_SCALE.x * NDC_PER_SCALE / Math.max(0.1, aspect);
  const h = TAG_SCALE.y * NDC_PER_SCALE;
  const shown: THREE.Vector3[] = [];
  for (const p of places) {
    const visible = p.slot !== targetSlot && p.distance <= TAG_RANGE && p.ndc.z < 1 && p.ndc.z > -1 && !shown.some((q) => Math.abs(q.x - p.ndc.x) < w && Math.abs(q.y - p.ndc.y) < h);
    p.tag.sprite.visible = visible;
    if (visible) shown.push(p.ndc);
  }
}

function bar(ctx: CanvasRenderingContext2D, y: number, share: number, colour: string): void {
  const x = 48;
  const width = 160;
  ctx.fillStyle = 'rgba(0, 0, 10, 0.75)';
  ctx.fillRect(x - 2, y - 2, width + 4, 12);
  ctx.fillStyle = colour;
  ctx.fillRect(x, y, width * share, 8);
}

const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);
