/**
 * Flying by the combat HUD in the e2e tests, as a player does: turn until
 * the crosshair sits on the lead indicator (or the target's brackets), or,
 * with the target off screen, the way the edge arrow points; or turn away
 * until the target is behind. Keys only (A/D yaw, ↓/↑ pitch up/down), held a
 * tick or a few at a time; the game's own ticks are the clock.
 */
import type { Page } from 'playwright-core';
import { waitTicks } from './gamePage';

/** Where the HUD says to turn: the offset (CSS px, y down) from the crosshair to the mark it shows. */
export interface HudAim {
  on: 'lead' | 'bracket' | 'arrow';
  dx: number;
  dy: number;
}

/** The HUD's aim now, or null when it shows no target mark (no target, or no ship). */
export function hudAim(page: Page): Promise<HudAim | null> {
  return page.evaluate(() => {
    const centre = (id: string): { x: number; y: number } | null => {
      const e = document.getElementById(id);
      if (!e || e.hidden || e.getClientRects().length === 0) return null;
      const b = e.getBoundingClientRect();
      return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
    };
    const cross = centre('hud-crosshair') ?? { x: window.innerWidth / 2, y: window.innerHeight / 2 };
    for (const [id, on] of [['hud-lead', 'lead'], ['hud-bracket', 'bracket']] as const) {
      const c = centre(id);
      if (c) return { on, dx: c.x - cross.x, dy: c.y - cross.y };
    }
    // The arrow's head: its box centre lies on the window's edge, the way to turn.
    const head = document.querySelector('#hud-offscreen:not([hidden]) .head');
    if (!head) return null;
    const b = head.getBoundingClientRect();
    return { on: 'arrow' as const, dx: b.left + b.width / 2 - window.innerWidth / 2, dy: b.top + b.height / 2 - window.innerHeight / 2 };
  });
}

/** Holds the keys that turn the nose towards the screen offset (dx, dy) for `ticks` ticks; nothing inside `dead` px. */
export async function turnBy(page: Page, dx: number, dy: number, dead: number, ticks: number): Promise<void> {
  const keys: string[] = [];
  if (Math.abs(dx) > dead) keys.push(dx > 0 ? 'KeyD' : 'KeyA');
  // The mark above the crosshair: pull the nose up (↓).
  if (Math.abs(dy) > dead) keys.push(dy < 0 ? 'ArrowDown' : 'ArrowUp');
  for (const k of keys) await page.keyboard.down(k);
  await waitTicks(page, ticks);
  for (const k of keys) await page.keyboard.up(k);
}

/** One step of aiming by the HUD: towards the lead indicator (else the brackets, else the arrow). Returns the aim before the step. */
export async function aimStep(page: Page): Promise<HudAim | null> {
  const aim = await hudAim(page);
  if (!aim) {
    await waitTicks(page, 2);
    return null;
  }
  const off = Math.hypot(aim.dx, aim.dy);
  await turnBy(page, aim.dx, aim.dy, aim.on === 'arrow' ? 0 : 3, aim.on === 'arrow' || off > 150 ? 4 : off > 40 ? 2 : 1);
  return aim;
}

/** A ship's pose as the world view gives it. */
export interface Pose {
  pos: { x: number; y: number; z: number };
  rot: { x: number; y: number; z: number; w: number };
}

/** Where `other` lies in the axes of our ship `us`: how far ahead, right and up (units), and its distance. */
export function bearing(us: Pose, other: Pick<Pose, 'pos'>): { ahead: number; right: number; up: number; dist: number } {
  const q = us.rot;
  // Our body axis (x, y, z) turned into the world by q.
  const rot = (x: number, y: number, z: number) => {
    const tx = 2 * (q.y * z - q.z * y);
    const ty = 2 * (q.z * x - q.x * z);
    const tz = 2 * (q.x * y - q.y * x);
    return { x: x + q.w * tx + (q.y * tz - q.z * ty), y: y + q.w * ty + (q.z * tx - q.x * tz), z: z + q.w * tz + (q.x * ty - q.y * tx) };
  };
  const d = { x: other.pos.x - us.pos.x, y: other.pos.y - us.pos.y, z: other.pos.z - us.pos.z };
  const dot = (a: { x: number; y: number; z: number }) => a.x * d.x + a.y * d.y + a.z * d.z;
  return { ahead: dot(rot(0, 0, -1)), right: dot(rot(1, 0, 0)), up: dot(rot(0, 1, 0)), dist: Math.hypot(d.x, d.y, d.z) };
}

/** The targeted ship's place in our ship's axes (bearing); null without both ships. */
export async function targetBearing(page: Page): Promise<{ ahead: number; right: number; up: number; dist: number } | null> {
  const poses = await page.evaluate(() => {
    const w = window.__starlane!.world();
    const target = w.ships.find((s) => s.slot === window.__starlane!.overlays().target);
    const us = w.ships.find((s) => s.slot === w.localSlot);
    return target && us ? { us: { pos: us.pos, rot: us.rot }, target: { pos: target.pos, rot: target.rot } } : null;
  });
  return poses && bearing(poses.us, poses.target);
}

/** Yaws until the target lies behind our ship (more than 120° off the nose). */
export async function turnAway(page: Page): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const b = await targetBearing(page);
    if (!b) {
      await waitTicks(page, 4);
      continue;
    }
    if (b.ahead < -0.5 * b.dist) return;
    // Turn the side that brings the target round behind us fastest: away from it.
    await turnBy(page, b.right >= 0 ? -1 : 1, 0, 0, 4);
  }
  throw new Error('could not turn away from the target');
}
