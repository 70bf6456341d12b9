/**
 * The bytes of a lockstep game on the wire, for `npm run bench:codec`: four
 * real LockstepEngines on a virtual clock (loopback: 1 ms one way, no loss),
 * each flown by a keyboard-like pilot (every axis −1, 0 or 1, held for 8 to
 * 40 frames; the trigger pressed now and then), for 60 s of game time. Every
 * datagram an engine hands to `send` is encoded as a peer-to-peer node sends
 * it (the base header, the receiver's address cookie, the frame section,
 * the status or state chunk events) and measured.
 */
import { LockstepEngine, type LockstepDatagram } from '../src/shared/lockstep/engine';
import { encodePacket } from '../src/shared/wire/codec';
import { PacketType } from '../src/shared/wire/types';
import type { ShipInput } from '../src/shared/game/types';
import { STEP_MS } from '../src/shared/sim/types';
import { floatStream } from '../src/shared/sim/prng';

export interface LockstepBytes {
  peers: number;
  seconds: number;
  /** Sizes (UDP payload) of every datagram carrying a frame section, sorted. */
  frameSizes: number[];
  /** Of those, how many also carried the status event. */
  withStatus: number;
  /** The same frame datagrams in the v9 layout (54-byte header with a zero ship state, the token, a 27-byte frame event and 6 bytes per input, the terminator), sorted. */
  v9Sizes: number[];
  /** Datagrams and payload bytes the busiest peer sent per second (to all the others; state transfers not counted). */
  datagramsPerS: number;
  bytesPerS: number;
  /** Frames each peer stepped (all equal when nothing stalled). */
  framesStepped: number[];
}

/** A pilot on a keyboard: each axis and the trigger held for 8..40 frames, then changed. */
function keyboardPilot(seed: number): () => ShipInput {
  const rand = floatStream(seed);
  const key = (): number => [-1, 0, 0, 1][Math.floor(rand() * 4)] as number;
  let input: ShipInput = { thrust: 1, yaw: 0, pitch: 0, roll: 0, fire: false };
  let left = 0;
  return () => {
    if (left-- <= 0) {
      input = { thrust: key(), yaw: key(), pitch: key(), roll: 0, fire: rand() < 0.3 };
      left = 8 + Math.floor(rand() * 33);
    }
    return input;
  };
}

export function lockstepBytes(peers = 4, seconds = 60, seed = 1): LockstepBytes {
  const queue: { at: number; from: number; to: number; d: LockstepDatagram }[] = [];
  const sentBytes = new Array<number>(peers).fill(0);
  const sentDatagrams = new Array<number>(peers).fill(0);
  const frameSizes: number[] = [];
  const v9Sizes: number[] = [];
  let withStatus = 0;
  let now = 0;
  let messageId = 1;
  const engines = Array.from({ length: peers }, (_, slot) =>
    new LockstepEngine({
      seed: 0x5741524c,
      rttMs: () => 2,
      lead: () => 0,
      notify: () => {},
      send: (to, d) => {
        const bytes = encodePacket({
          header: { type: PacketType.GameState, senderSlot: slot, messageId: messageId++, joined: true, lockstep: true, token: 0x5eed_c0de, ...(d.inputs ? { inputs: d.inputs } : {}) },
          events: d.events,
        });
        // The game's own traffic: state transfers (joining, a desync) are not counted.
        if (!d.events.some((e) => e.type === 'lockstepState')) {
          sentBytes[slot] = (sentBytes[slot] as number) + bytes.length;
          sentDatagrams[slot] = (sentDatagrams[slot] as number) + 1;
        }
        if (d.inputs) {
          frameSizes.push(bytes.length);
          v9Sizes.push(54 + 4 + 3 + 27 + 6 * d.inputs.inputs.length + 1);
          if (d.events.some((e) => e.type === 'lockstepStatus')) withStatus++;
        }
        queue.push({ at: now + 1, from: slot, to, d });
      },
    }),
  );
  const pilots = engines.map((_, slot) => keyboardPilot(seed * 97 + slot));
  const all = engines.map((_, slot) => slot);
  engines.forEach((e, slot) => e.setMembers(slot, all, 0));
  const framesStepped = new Array<number>(peers).fill(0);
  for (; now < seconds * 1000; now += STEP_MS) {
    engines.forEach((e, slot) => {
      framesStepped[slot] = (framesStepped[slot] as number) + e.tick((pilots[slot] as () => ShipInput)(), now).length;
    });
    // Loopback: everything sent in this tick arrives before the next.
    for (const q of queue.splice(0)) (engines[q.to] as LockstepEngine).receive(q.from, q.d, q.at);
  }
  frameSizes.sort((a, b) => a - b);
  v9Sizes.sort((a, b) => a - b);
  const busiest = sentBytes.indexOf(Math.max(...sentBytes));
  return {
    peers,
    seconds,
    frameSizes,
    withStatus,
    v9Sizes,
    datagramsPerS: (sentDatagrams[busiest] as number) / seconds,
    bytesPerS: (sentBytes[busiest] as number) / seconds,
    framesStepped,
  };
}
