/**
 * The free camera of demo playback (and spectating): the player's controls
 * fly it like a ship without its physics — pitch, yaw and roll turn it at a
 * fixed rate, thrust moves it along its nose (the afterburner four times as
 * fast), and it stops when the stick is let go. Pure; one call per 25 ms
 * tick.
 */
import type { Quat, Vec3 } from './types';
import { STEP_MS, type ShipInput } from '../sim/types';
import { addScaled, forwardOf, identityQuat, integrateRotation } from '../sim/vec';

/** Turn rate at full stick (rad/s) and speed at full thrust (units/s). */
export const FREE_CAMERA_TURN = 1.6;
export const FREE_CAMERA_SPEED = 160;

export interface CameraPose {
  pos: Vec3;
  rot: Quat;
}

export class FreeCamera {
  pose: CameraPose;

  constructor(from: CameraPose = { pos: { x: 0, y: 0, z: 0 }, rot: identityQuat() }) {
    this.pose = { pos: { ...from.pos }, rot: { ...from.rot } };
  }

  /** Moves the camera one tick with `input`; returns the new pose. */
  step(input: ShipInput): CameraPose {
    const dt = STEP_MS / 1000;
    const turn = { x: input.pitch * FREE_CAMERA_TURN, y: -input.yaw * FREE_CAMERA_TURN, z: -input.roll * FREE_CAMERA_TURN };
    const rot = integrateRotation(this.pose.rot, turn, dt);
    const speed = input.thrust * FREE_CAMERA_SPEED * (input.afterburner ? 4 : 1);
    this.pose = { pos: addScaled(this.pose.pos, forwardOf(rot), speed * dt), rot };
    return this.pose;
  }
}
