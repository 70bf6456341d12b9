/**
 * The connection layer of a client session (pipeline.ts): one Connection
 * (net/connection.ts) per remote node, by packet API key — the only place a
 * session writes a datagram's `messageId` (`number`, on the way out, as the
 * last thing before the bytes are made) and the one place it reads it
 * (`admit`, on the way in). The membership above builds its packets without
 * a number and gets each received packet with the verdict (an Arrival): it
 * keeps no window of its own.
 *
 * What is admitted:
 * - a number taken before (a duplicate, or a replay) is dropped here, once,
 *   whatever the packet's type;
 * - in a game, a datagram that belongs to a running session (WINDOWED) from
 *   a node of the session (a member, a link target, the time source) is
 *   refused when its number is older than the window too, and both refusals
 *   are counted (`counts`: the console's and the tests' figures);
 * - everything else goes up with its place (newest, late, too old): a
 *   membership takes state (game states, node-alives, a disconnect) only
 *   from the newest, and uses older control packets (start-up), whose
 *   effects are idempotent;
 * - a ConnectRequest that is not the newest restarts its node's window from
 *   its number: only a node starting a new session sends one, and a restarted
 *   program may number from below its previous run (a clock set back, or the
 *   18-hour wrap of sequenceStart).
 *
 * A node's received numbers are kept while it is in the session and for
 * FORGET_RECEIVED_MS after the last new number from it once it is not (a
 * datagram it sent before it left may still be on the way and must not be
 * taken for a new one); then they are forgotten, so a node that comes back
 * is heard afresh. Outgoing numbers are never forgotten (Connections keeps
 * them for the node's life).
 */
import { Connections, type Arrival, type Connection, type UnnumberedPacket } from '../net/connection';
import { PacketType, type Packet } from '../wire/types';

/** Datagram types that belong to a running session: older than the window, they are refused (start-up negotiation is not). */
const WINDOWED: ReadonlySet<number> = new Set([PacketType.GameState, PacketType.NodeAlive, PacketType.Disconnect, PacketType.Ping, PacketType.Pong, PacketType.Relay, PacketType.Reliable]);

/** How long a node outside the session keeps its received numbers after the last new one (p2p's alive interval: longer than a datagram is on its way). */
export const FORGET_RECEIVED_MS = 500;

/**
 * The key of the LAN broadcast's connection (p2p start-up). A broadcast is
 * one datagram for every node that hears it, so it cannot carry any node's
 * link number; the wire still wants one. Nobody reads it: a session that
 * proves addresses (every p2p game) drops an untokened datagram before
 * admitting it, and takes only the tokened copy each proven node gets on its
 * own link, numbered there. Not a packet API key (those are node identities).
 */
const LAN_BROADCAST = '\0lan-broadcast';

export class SessionConnections {
  private readonly table: Connections<string>;
  /** Datagrams refused in a game: numbers already taken, and numbers older than the window. */
  readonly counts = { replayed: 0, tooOld: 0 };
  /** The nodes of the session, as of the last tick in a game (empty outside one). */
  private session: ReadonlySet<string> = new Set();
  /** When each node last sent a new number (only nodes whose received numbers are kept). */
  private readonly heardAt = new Map<string, number>();

  constructor(
    /** Whole seconds of wall-clock time, where each connection's numbers start. */
    wallSeconds: () => number,
    /**
     * Whether datagrams of nodes outside the session are admitted on a
     * connection of their own: true when the session proves addresses (only
     * proven nodes get this far, and the proof bounds them); else only nodes
     * of the session and nodes we have sent to have one, so a flood of
     * forged sources cannot start the table afresh.
     */
    private readonly strangers: boolean,
  ) {
    this.table = new Connections(wallSeconds);
  }

  /** The connection of the node with packet API key `key`, if it has one (every node we send to or admit): its round trip and loss. */
  get(key: string): Connection | undefined {
    return this.table.get(key);
  }

  /** Every connection, with its node's key. */
  entries(): IterableIterator<[string, Connection]> {
    return this.table.entries();
  }

  /** `packet` numbered for the node with packet API key `key`: its connection's next number. */
  number(key: string, packet: UnnumberedPacket): Packet {
    return this.table.open(key).number(packet);
  }

  /** `packet` numbered for the LAN broadcast (see LAN_BROADCAST: a number no receiver reads). */
  numberBroadcast(packet: UnnumberedPacket): Packet {
    return this.table.open(LAN_BROADCAST).number(packet);
  }

  /**
   * A datagram of `type` numbered `seq` from the node with key `key`, at
   * `now`: null when it is dropped here (a duplicate; while `inGame`, a
   * session datagram of a session node older than the window), else its place.
   */
  admit(key: string, type: number, seq: number, now: number, inGame: boolean): Arrival | null {
    const inSession = inGame && this.session.has(key);
    const connection = inSession || this.strangers ? this.table.open(key) : this.table.get(key);
    // A stranger we have never sent to, in a session that does not prove addresses: nothing to compare with (the membership ignores strangers there).
    if (!connection) return 'newest';
    const { verdict } = connection.admit(seq);
    if ((verdict === 'replayed' || verdict === 'too-old') && inSession && WINDOWED.has(type)) {
      if (verdict === 'replayed') this.counts.replayed += 1;
      else this.counts.tooOld += 1;
      return null;
    }
    if (verdict === 'replayed') return null;
    if (verdict === 'newest') this.heardAt.set(key, now);
    else if (type === PacketType.ConnectRequest) {
      connection.restart(seq);
      this.heardAt.set(key, now);
    }
    return verdict;
  }

  /**
   * The nodes of the session now (members, link targets, the time source;
   * none outside a game): the others' received numbers are forgotten once
   * they have sent nothing new for FORGET_RECEIVED_MS.
   */
  retain(keys: ReadonlySet<string>, now: number): void {
    this.session = keys;
    for (const [key, at] of this.heardAt) {
      if (keys.has(key) || now - at < FORGET_RECEIVED_MS) continue;
      this.table.get(key)?.forgetReceived();
      this.heardAt.delete(key);
    }
  }

  /** The protocol stops: every received number is forgotten; the outgoing numbers go on. */
  forgetReceived(): void {
    this.session = new Set();
    for (const key of this.heardAt.keys()) this.table.get(key)?.forgetReceived();
    this.heardAt.clear();
  }
}
