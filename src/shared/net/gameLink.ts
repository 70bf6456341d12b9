/**
 * The game side of the network: what the local game reports each frame and
 * what the network delivers back. The renderer (or a headless bot) produces
 * {@link LocalGameUpdate}s; the host's game-code interface turns them into
 * remote events; received packets come back as {@link NetDelivery}s.
 */
import type { Vec3 } from '../sim/types';
import type { RemoteEvent, ShipState } from '../wire/types';

/** Something the local game did that other players must see. */
export type LocalGameEvent =
  /** A laser left the local ship. `localId` is unique per ship (the host scopes it by slot). */
  | { type: 'laser'; localId: number; pos: Vec3; vel: Vec3; ttl: number }
  /** The local ship was destroyed; `killerSlot` is the slot whose laser did it (NO_SLOT if unknown). */
  | { type: 'destroyed'; killerSlot: number };

/** Most local events one update may carry (more are a bug or an attack; the host drops the update). */
export const MAX_LOCAL_EVENTS = 32;

/** One frame's report from the local game. */
export interface LocalGameUpdate {
  /** Simulation tick of `ship`. */
  tick: number;
  /** The local ship now, or null while it has none (destroyed, not yet respawned). */
  ship: ShipState | null;
  events: LocalGameEvent[];
}

/** One player as the game view shows it. */
export interface NetPlayer {
  slot: number;
  name: string;
  joined: boolean;
  /** This is us. */
  local: boolean;
  /** Printable node address. */
  address: string;
}

/** What the network hands to the game view. */
export type NetDelivery =
  /** The slot table changed (or the connection state did). */
  | { kind: 'players'; players: NetPlayer[]; localSlot: number | null; status: string }
  /** A fresh ship state from a peer (stale and duplicate packets never get here). */
  /**
   * `ageMs`: how old the state is by the synchronised common game time
   * (now − the sender's stamp), absent before sync or when implausible; the
   * view places the ship where the state has moved on to by now.
   */
  | { kind: 'state'; slot: number; gameTime: number; state: ShipState; ageMs?: number }
  /**
   * A remote event from a peer (object creation, kill, …) for the game to
   * replicate. `ageMs` as on 'state': now in common game time minus the
   * stamp of the packet that carried it (absent before sync, when
   * implausible, or when the carrier had no common-time stamp), so a
   * replicated laser can be advanced by its age.
   */
  | { kind: 'event'; slot: number; event: RemoteEvent; ageMs?: number }
  /** A chat line (already validated and printable). */
  | { kind: 'chat'; slot: number; from: string; text: string };
