/**
 * The radar's maths, without the DOM (unit-tested in Node): a contact's place
 * on the 3-D scope, relative to our ship's position and orientation. The
 * scope is a disc seen from above and behind, like the scanners of old space
 * games: the disc is our ship's horizontal plane (its right and nose axes),
 * drawn as an ellipse; a contact sits at its place in that plane and a stalk
 * rises (or drops) from there by its height above (or below) the plane.
 */
import type { Quat, Vec3 } from '../../../../shared/sim/types';
import { quatConjugate, rotate } from '../../../../shared/sim/vec';

/** How flat the disc is drawn: its height on screen is this share of its width. */
export const SCOPE_TILT = 0.5;
/** A stalk one radar-range high is this share of the disc's half-width long on screen. */
export const SCOPE_STALK = 0.35;

/** One contact's place on the scope, in units of the disc's half-width from its centre (screen y down). */
export interface ScopePoint {
  /** The foot of the stalk: the contact's place in our ship's plane. */
  x: number;
  y: number;
  /** The top of the stalk: where the contact's mark is drawn (y less than `y` above our plane). */
  top: number;
  /** Farther than the scope's range: drawn on its rim, in its direction. */
  clamped: boolean;
}

/** `world` in our ship's body axes (right +X, up +Y, nose −Z), from `ship` at `shipPos` turned by `shipRot`. */
export function bodyOffset(world: Vec3, shipPos: Vec3, shipRot: Quat): Vec3 {
  return rotate(quatConjugate(shipRot), { x: world.x - shipPos.x, y: world.y - shipPos.y, z: world.z - shipPos.z });
}

/**
 * The scope point of a contact at body offset `body` (bodyOffset), with the
 * disc's rim at `range` units. A contact beyond it is pulled in along its
 * direction to the range and marked clamped, so the rim shows where to turn.
 * Ahead is up on the scope, right is right, above our plane the stalk rises.
 */
export function scopePoint(body: Vec3, range: number): ScopePoint {
  const dist = Math.sqrt(body.x * body.x + body.y * body.y + body.z * body.z);
  const clamped = dist > range;
  const k = (clamped ? range / dist : 1) / range;
  const right = body.x * k;
  const ahead = -body.z * k;
  const up = body.y * k;
  const y = -ahead * SCOPE_TILT;
  return { x: right, y, top: y - up * SCOPE_STALK, clamped };
}
