/**
 * What a netgame node simulates: the world and each player's current
 * controls (the moves array records only changes, so the controls are part
 * of the state). Stepping frame F first applies the moves tagged F, in entry
 * order, then steps the world with every player's controls — the same on
 * the server and every client. The state's bytes (for state differences) are
 * the world codec's followed by the controls.
 */
import type { ShipInput, World } from '../game/types';
import type { WorldEvent } from '../game/events';
import { stepWorld } from '../game/step';
import { withoutPilot, withSpawnedShip } from '../game/spawnPoint';
import { frameInputToShip, NEUTRAL_FRAME_INPUT } from '../lockstep/input';
import { decodeWorld, encodeWorld } from '../lockstep/worldCodec';
import { NO_SLOT, SMALL_GAME_SLOTS, type FrameInput } from '../wire/types';
import { MoveKind, type GameMove } from './gameMoves';

export interface NetState {
  world: World;
  /** Each player's controls, by slot (players in the world, and players about to join who gave controls already). */
  controls: ReadonlyMap<number, FrameInput>;
}

/**
 * `state` with the moves of its frame applied (in order), then stepped one
 * frame. `stepped`, when given, hears the world the step started from and
 * the controls it used (a demo records them: SteppedFrame.replay).
 */
export function stepNetState(state: NetState, moves: readonly GameMove[], events?: WorldEvent[], stepped?: (from: World, controls: ReadonlyMap<number, FrameInput>) => void): NetState {
  let world = state.world;
  const controls = new Map(state.controls);
  for (const m of moves) {
    const present = world.ships.some((s) => s.slot === m.slot);
    // Controls given before the ship enters count from its first frame (a player's first change may come before its join).
    if (m.kind === MoveKind.Input) controls.set(m.slot, m.input);
    else if (m.kind === MoveKind.Join && !present) {
      world = withSpawnedShip(world, m.slot);
      if (!controls.has(m.slot)) controls.set(m.slot, NEUTRAL_FRAME_INPUT);
    } else if (m.kind === MoveKind.Leave && present) {
      world = withoutPilot(world, m.slot);
      controls.delete(m.slot);
    }
  }
  const inputs = new Map<number, ShipInput>();
  for (const [slot, input] of controls) inputs.set(slot, frameInputToShip(input));
  stepped?.(world, controls);
  return { world: stepWorld(world, inputs, events ? { events } : {}), controls };
}

/** The state's bytes: a count and per player slot + 6 bytes of controls, in slot order, then the world (worldCodec). */
export function encodeNetState(state: NetState): Uint8Array {
  const world = encodeWorld(state.world);
  const slots = [...state.controls.keys()].sort((a, b) => a - b);
  const head = 1 + slots.length * 7;
  const out = new Uint8Array(head + world.length);
  out[0] = slots.length;
  slots.forEach((slot, i) => {
    const c = state.controls.get(slot) as FrameInput;
    out.set([slot, c.thrust & 0xff, c.yaw & 0xff, c.pitch & 0xff, c.roll & 0xff, c.buttons, c.target], 1 + 7 * i);
  });
  out.set(world, head);
  return out;
}

const axis = (b: number): number | null => (b === 0x80 ? null : b > 127 ? b - 256 : b);

/** The state in `bytes`, or why not (untrusted: never throws). */
export function decodeNetState(bytes: Uint8Array): { ok: true; state: NetState } | { ok: false; reason: string } {
  const n = bytes[0];
  if (n === undefined || n > SMALL_GAME_SLOTS || bytes.length < 1 + 7 * n) return { ok: false, reason: 'bad controls' };
  const controls = new Map<number, FrameInput>();
  for (let i = 0; i < n; i++) {
    const b = bytes.subarray(1 + 7 * i, 8 + 7 * i);
    const [slot, buttons, target] = [b[0] as number, b[5] as number, b[6] as number];
    const [thrust, yaw, pitch, roll] = [axis(b[1] as number), axis(b[2] as number), axis(b[3] as number), axis(b[4] as number)];
    if (thrust === null || yaw === null || pitch === null || roll === null) return { ok: false, reason: 'bad controls' };
    if (slot >= SMALL_GAME_SLOTS || buttons > 31 || (target >= SMALL_GAME_SLOTS && target !== NO_SLOT) || controls.has(slot)) return { ok: false, reason: 'bad controls' };
    controls.set(slot, { thrust, yaw, pitch, roll, buttons, target });
  }
  const decoded = decodeWorld(bytes.subarray(1 + 7 * n));
  if (!decoded.ok) return { ok: false, reason: decoded.reason };
  return { ok: true, state: { world: decoded.world, controls } };
}
