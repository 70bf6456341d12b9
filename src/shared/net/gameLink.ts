/**
 * What the network delivers to the game: slot tables, remote ship states,
 * remote events and chat, as {@link NetDelivery}s. (What the game hands the
 * network goes through the game-code interface, gameCode.ts.)
 */
import type { ShipState, WorldMessage } from '../wire/types';
import type { ShipLook } from '../wire/shipLook';

/** One player as the game view shows it. */
export interface NetPlayer {
  slot: number;
  name: string;
  joined: boolean;
  /** This is us. */
  local: boolean;
  /** Printable node address. */
  address: string;
  /** The ship look the player chose (shared/wire/shipLook.ts; LOOK_AUTO parts by slot); absent when it left both to the slot. */
  look?: ShipLook;
}

/**
 * One player's round trip as the scoreboard shows it, whole ms (which round
 * trip that is: `Protocol.playerPings` in protocol.ts).
 * Not part of the `players` delivery, which is sent only when the slot table
 * changes: the host puts the current figures into every world view.
 */
export interface PlayerPing {
  slot: number;
  ms: number;
}

/** What the network hands to the game view. */
export type NetDelivery =
  /** The slot table changed (or the connection state did). */
  /** `watching`: the table as someone watching sees it (a spectator, a player not joined, a demo): `localSlot` is the player the camera follows, not us. */
  | { kind: 'players'; players: NetPlayer[]; localSlot: number | null; status: string; watching?: true }
  /** A fresh ship state from a peer (stale and duplicate packets never get here). */
  /**
   * `ageMs`: how old the state is by the synchronised common game time
   * (now − the sender's stamp), absent before sync or when implausible; the
   * view places the ship where the state has moved on to by now.
   */
  | { kind: 'state'; slot: number; gameTime: number; state: ShipState; ageMs?: number }
  /**
   * A remote event from a peer (object creation, kill, …: a world-channel
   * message, wire/channels.ts) for the game to replicate. `ageMs` as on 'state': now in common game time minus the
   * stamp of the packet that carried it (absent before sync, when
   * implausible, or when the carrier had no common-time stamp), so a
   * replicated laser can be advanced by its age.
   */
  | { kind: 'event'; slot: number; event: WorldMessage; ageMs?: number }
  /** A chat line (already validated and printable). */
  | { kind: 'chat'; slot: number; from: string; text: string };
