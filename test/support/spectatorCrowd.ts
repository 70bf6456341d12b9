/**
 * Spectators for the spectator scenario (test and bench): each takes a
 * spectator's seat at a gameserver (GameClient's `spectate`), says hello,
 * answers the server's pings and acknowledges its reliable messages through
 * the client's link layer, as a Starlane spectator does, and counts the
 * states relayed to it from each player slot and the bytes it received
 * (scanned from the raw datagrams, nothing kept).
 */
import { decodePacket } from '../../src/shared/wire/codec';
import { PacketType } from '../../src/shared/wire/types';
import { GameClient } from './gameClient';

/** What each spectator got during a window: states by player slot, and bytes. */
export interface CrowdWindow {
  seconds: number;
  /** got[i]: states spectator i got from each player slot. */
  got: Map<number, number>[];
  /** bytes[i]: bytes spectator i received. */
  bytes: number[];
}

export class SpectatorCrowd {
  private readonly states: Map<number, number>[];
  private readonly bytes: number[];

  private constructor(readonly clients: GameClient[]) {
    this.states = clients.map(() => new Map());
    this.bytes = clients.map(() => 0);
  }

  /** Seats `n` spectators at the gameserver at `tcpPort`, from `addresses` in turn (another 127.0.0.x is another host). */
  static async join(tcpPort: number, n: number, addresses: readonly string[] = ['127.0.0.1']): Promise<SpectatorCrowd> {
    const clients: GameClient[] = [];
    let crowd: SpectatorCrowd | undefined;
    try {
      for (let i = 0; i < n; i++) {
        const index = i;
        const localAddress = addresses[i % addresses.length] as string;
        clients.push(await GameClient.join({ tcpPort, name: `eye${i}`, spectate: true, link: true, localAddress, raw: (bytes) => crowd?.count(index, bytes) }));
      }
      crowd = new SpectatorCrowd(clients);
      for (const c of clients) c.hello();
      return crowd;
    } catch (err) {
      for (const c of clients) c.close();
      throw err;
    }
  }

  /** Runs `during` and returns what each spectator got while it ran. */
  async window(during: () => Promise<unknown>): Promise<CrowdWindow> {
    const before = this.states.map((m) => new Map(m));
    const bytesBefore = [...this.bytes];
    const t0 = performance.now();
    await during();
    const seconds = (performance.now() - t0) / 1000;
    const got = this.states.map((m, i) => new Map([...m].map(([slot, k]) => [slot, k - (before[i]?.get(slot) ?? 0)])));
    return { seconds, got, bytes: this.bytes.map((b, i) => b - (bytesBefore[i] ?? 0)) };
  }

  /** States spectator `i` has got from `slot` so far. */
  statesOf(i: number, slot: number): number {
    return this.states[i]?.get(slot) ?? 0;
  }

  close(): void {
    for (const c of this.clients) c.close();
  }

  private count(i: number, bytes: Uint8Array): void {
    this.bytes[i] = (this.bytes[i] ?? 0) + bytes.length;
    if (bytes[3] !== PacketType.Relay) return;
    const r = decodePacket(bytes);
    const seen = this.states[i];
    if (!r.ok || !seen) return;
    for (const e of r.packet.events) {
      if (e.type !== 'relayed' || !e.packet.header.joined || e.packet.header.type !== PacketType.GameState) continue;
      seen.set(e.slot, (seen.get(e.slot) ?? 0) + 1);
    }
  }
}
