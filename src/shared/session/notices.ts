/**
 * What a session tells its adapter, as data: the adapter (src/node/protocol/
 * gameSession.ts) turns each into console text, or — a server protocol whose
 * only link fails — into a disconnect. The game view gets its own deliveries
 * from the session directly.
 */
import type { NodeAddress } from '../net/packetApi';
import type { WireAddr } from '../wire/types';
import type { ClockReport } from './sessionClock';

export type SessionNotice =
  /** A chat line from `from` (already delivered to the game view). */
  | { kind: 'chat'; from: string; text: string }
  /** A gameserver said which solar system we are in (`jumped`: we arrived there through a stargate). */
  | { kind: 'system'; name: string; jumped: boolean; gates: { to: string; pos: { x: number; y: number; z: number } }[] }
  /** The gameserver sends our ship through a stargate to another server of its universe (`jumpTicket`). */
  | { kind: 'jump'; host: string; port: number; system: string; ticket: string; clockShift: number }
  /** A player's ship was destroyed; `killer` null when nobody shot it. */
  | { kind: 'killed'; victim: string; killer: string | null }
  /** A linked node stopped acknowledging reliable messages (`who`: its name or address). */
  | { kind: 'link-failed'; addr: WireAddr; who: string; reason: string }
  /** A datagram of another wire-format version arrived (dropped and counted). */
  | { kind: 'other-version'; from: NodeAddress; data: Uint8Array }
  /** A datagram could not be sent. */
  | { kind: 'send-failed'; to: NodeAddress; message: string }
  /** The session clock's progress before a join (`who`: the time source's name or address). */
  | { kind: 'clock'; report: ClockReport; who: string };
