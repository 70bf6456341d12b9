/**
 * Honest gameserver players for the hostile scenarios (bench:hostile and the
 * tests): each joins with a GameClient, says hello, then sends a GameState
 * at its normal rate and counts the states it gets relayed from each of the
 * others (scanned from the raw bytes, nothing kept, so a long bench run
 * costs no memory). Rates are read over windows the caller marks with
 * {@link HonestPlayers.window}, never over sleeps.
 */
import { decodePacket } from '../../src/shared/wire/codec';
import { PacketType } from '../../src/shared/wire/types';
import { GameClient } from './gameClient';
import { waitFor } from './waitFor';

/** States one player got from another during a window, and the window's length. */
export interface Window {
  seconds: number;
  /** sent[i]: states player i sent. */
  sent: number[];
  /** got[i][j]: states player i got from player j (the diagonal stays 0). */
  got: number[][];
}

export class HonestPlayers {
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  /** counts[i][j]: states player i has got from player j since joining. */
  private readonly counts: number[][];
  private readonly sent: number[];

  private constructor(readonly clients: GameClient[]) {
    this.counts = clients.map(() => clients.map(() => 0));
    this.sent = clients.map(() => 0);
  }

  /** Joins `n` players to the gameserver at `tcpPort`, starts their states at `stateHz` and waits until each hears every other. */
  static async join(tcpPort: number, n: number, stateHz = 20): Promise<HonestPlayers> {
    const clients: GameClient[] = [];
    let players: HonestPlayers | undefined;
    try {
      for (let i = 0; i < n; i++) {
        const index = i;
        clients.push(await GameClient.join({ tcpPort, name: `honest${i}`, raw: (bytes) => players?.count(index, bytes) }));
      }
      players = new HonestPlayers(clients);
      for (const c of clients) c.hello();
      players.start(stateHz);
      await waitFor('every honest player to hear every other', () => players!.counts.every((row, i) => row.every((k, j) => i === j || k > 0)));
      return players;
    } catch (err) {
      players?.close();
      for (const c of clients) c.close();
      throw err;
    }
  }

  /** Runs `during` and returns what each player got from each other while it ran. */
  async window(during: () => Promise<unknown>): Promise<Window> {
    const before = this.counts.map((row) => [...row]);
    const sentBefore = [...this.sent];
    const t0 = performance.now();
    await during();
    const seconds = (performance.now() - t0) / 1000;
    return { seconds, sent: this.sent.map((k, i) => k - (sentBefore[i] ?? 0)), got: this.counts.map((row, i) => row.map((k, j) => k - (before[i]?.[j] ?? 0))) };
  }

  /** Waits until player `i` has got `n` more states from player `j` (a window of `n` honest states). */
  async more(i: number, j: number, n: number, ms = 30_000): Promise<void> {
    const target = (this.counts[i]?.[j] ?? 0) + n;
    await waitFor(`player ${i} to get ${n} states from player ${j}`, () => (this.counts[i]?.[j] ?? 0) >= target, ms);
  }

  close(): void {
    for (const t of this.timers.splice(0)) clearInterval(t);
    for (const c of this.clients) c.close();
  }

  private start(stateHz: number): void {
    this.clients.forEach((c, i) => {
      const pos = { x: 40 * i, y: 0, z: 0 };
      this.timers.push(setInterval(() => {
        c.sendState(pos);
        this.sent[i] = (this.sent[i] ?? 0) + 1;
      }, 1000 / stateHz));
    });
  }

  private count(i: number, bytes: Uint8Array): void {
    if (bytes[3] !== PacketType.Relay) return;
    const r = decodePacket(bytes);
    if (!r.ok) return;
    const row = this.counts[i];
    if (!row) return;
    const slotToIndex = (slot: number) => this.clients.findIndex((c) => c.slot === slot);
    for (const e of r.packet.events) {
      if (e.type !== 'relayed' || !e.packet.header.joined || e.packet.header.type !== PacketType.GameState) continue;
      const j = slotToIndex(e.slot);
      if (j >= 0) row[j] = (row[j] ?? 0) + 1;
    }
  }
}

/** States per second player i got from player j in window `w`. */
export const rateOf = (w: Window, i: number, j: number): number => (w.got[i]?.[j] ?? 0) / w.seconds;
