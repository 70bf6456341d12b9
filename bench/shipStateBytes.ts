/**
 * Bytes of a ship state in a game state's header, for bench:codec: the
 * states a real client game makes for its own ship at 20 Hz, as v12 sent
 * them (40 bytes), as v13 sends them full (30), and partial against the
 * state the receiver acknowledged `ACK_LAG` sends back (a round trip of up
 * to 100 ms at 20 Hz), or full where that saves nothing: what a p2p or
 * slotserver peer sends once acknowledgements flow.
 */
import { ClientGame, shipToState } from '../src/shared/game';
import { NO_INPUT, TICK_HZ, type ShipInput } from '../src/shared/sim/types';
import { changedPortions, FULL_STATE_SIZE, measureState, PORTION_BASE, quantiseState } from '../src/shared/wire/shipStateCodec';
import type { ShipState } from '../src/shared/wire/types';

/** Sends back the base is: the state acknowledged when the next one goes. */
const ACK_LAG = 2;
const SEND_HZ = 20;
const V12_STATE = 40;
const NAMES = ['position', 'orientation', 'velocity', 'spin', 'status'];

export interface StateBytes {
  ship: string;
  states: number;
  v12: number;
  full: number;
  ackLag: number;
  partialMean: number;
  partialP99: number;
  /** How often each portion was sent in a partial state. */
  portions: string;
}

function statesOf(input: (t: number) => ShipInput, seconds: number): ShipState[] {
  const game = new ClientGame();
  game.applyPlayers([{ slot: 0, joined: true, local: true }, { slot: 1, joined: true, local: false }], 0);
  const out: ShipState[] = [];
  const ticksPerState = TICK_HZ / SEND_HZ;
  for (let t = 0; t < seconds * TICK_HZ; t++) {
    game.step(input(t), t * (1000 / TICK_HZ));
    const ship = game.localShip;
    if (t % ticksPerState === 0 && ship) out.push(shipToState(ship));
  }
  return out;
}

function measure(ship: string, states: ShipState[]): StateBytes {
  const sizes: number[] = [];
  const counts = [0, 0, 0, 0, 0];
  states.forEach((s, i) => {
    if (i < ACK_LAG) return;
    const sent = quantiseState(states[i - ACK_LAG] as ShipState);
    // The sender sends full when a partial state would save nothing.
    sizes.push(Math.min(FULL_STATE_SIZE, measureState(s, { distance: ACK_LAG, sent })));
    const portions = changedPortions(quantiseState(s), sent) | PORTION_BASE;
    NAMES.forEach((_, k) => (counts[k] = (counts[k] as number) + ((portions & (1 << k)) !== 0 ? 1 : 0)));
  });
  sizes.sort((a, b) => a - b);
  const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
  const p99 = sizes[Math.min(sizes.length - 1, Math.floor(0.99 * sizes.length))] as number;
  const portions = NAMES.map((n, k) => `${n} ${Math.round((100 * (counts[k] as number)) / sizes.length)} %`).join(', ');
  return { ship, states: states.length, v12: V12_STATE, full: FULL_STATE_SIZE, ackLag: ACK_LAG, partialMean: mean, partialP99: p99, portions };
}

/** The figures for a fighting ship (thrust, turning, laser held down) and an idle one (no input, at rest). */
export function shipStateBytes(seconds: number): StateBytes[] {
  // Turning one way then the other every 2 s, pitching a little, firing all the while.
  const fighting = statesOf((t) => ({ ...NO_INPUT, thrust: 1, yaw: Math.floor(t / (2 * TICK_HZ)) % 2 === 0 ? 0.6 : -0.6, pitch: 0.2, fire: true }), seconds);
  const idle = statesOf(() => NO_INPUT, seconds);
  return [measure('a fighting ship (thrust, turning, firing)', fighting), measure('an idle ship (no input, at rest)', idle)];
}
