/**
 * Lockstep peers on a simulated network with a virtual clock: each peer is a
 * real LockstepEngine ticking every 25 ms (each with its own phase), its
 * packets carried after a latency with jitter, lost, duplicated or held back
 * (reordered) by a seeded PRNG. What the peers stepped is recorded per
 * (epoch, frame), so a test can check that every peer computed the same
 * world for every frame it completed.
 */
import { LockstepEngine, type LockstepDatagram, type LockstepNotice } from '../../src/shared/lockstep/engine';
import type { ShipInput, World } from '../../src/shared/game/types';
import { encodeWorld } from '../../src/shared/lockstep/worldCodec';

export interface SimOptions {
  peers: number;
  seed: number;
  lossPct?: number;
  dupPct?: number;
  reorderPct?: number;
  /** One-way delay in ms (round trip twice this). */
  latencyMs?: number;
  jitterMs?: number;
  plainStopAndWait?: boolean;
  /** The input_lead setting (0: automatic). */
  lead?: number;
  /** Drop one datagram: return true to lose it. */
  drop?(from: number, to: number, d: LockstepDatagram, now: number): boolean;
}

interface InFlight {
  at: number;
  seq: number;
  from: number;
  to: number;
  d: LockstepDatagram;
}

/** A small seeded PRNG (mulberry32) for the network's and the pilots' choices. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class LockstepSim {
  readonly engines: LockstepEngine[] = [];
  readonly notices: { slot: number; notice: LockstepNotice; at: number }[] = [];
  now = 0;
  /** Datagrams sent, lost, duplicated. */
  readonly traffic = { sent: 0, lost: 0, duplicated: 0 };
  private readonly inFlight: InFlight[] = [];
  private seq = 0;
  private readonly rand: () => number;
  private readonly phase: number[] = [];
  private readonly nextTick: number[] = [];
  private readonly stopped = new Set<number>();
  private readonly pilots: (() => ShipInput)[] = [];
  /** The encoded world each (epoch, frame) stepped to, by the first peer that got there: later peers must match it. */
  private readonly seen = new Map<string, { slot: number; bytes: string; peers: number }>();
  /** Peers whose world was corrupted on purpose: not compared until they take a state transfer. */
  private readonly diverged = new Set<number>();
  readonly mismatches: string[] = [];
  /** Frames each peer completed. */
  readonly completed: number[] = [];

  constructor(private readonly o: SimOptions) {
    this.rand = prng(o.seed);
    for (let slot = 0; slot < o.peers; slot++) {
      const pilotRand = prng(o.seed * 31 + slot);
      this.pilots.push(() => ({ thrust: pilotRand() * 2 - 1, yaw: pilotRand() * 2 - 1, pitch: pilotRand() - 0.5, roll: 0, fire: pilotRand() < 0.3, missile: pilotRand() < 0.02, mine: pilotRand() < 0.01 }));
      this.engines.push(
        new LockstepEngine({
          seed: 0x5741524c,
          rttMs: () => 2 * (o.latencyMs ?? 5),
          lead: () => o.lead ?? 0,
          send: (to, d) => this.send(slot, to, d),
          notify: (notice) => {
            this.notices.push({ slot, notice, at: this.now });
            if (notice.kind === 'adopted') this.heal(slot);
          },
          plainStopAndWait: o.plainStopAndWait ?? false,
        }),
      );
      this.phase.push(Math.floor(this.rand() * 25));
      this.nextTick.push(this.phase[slot] as number);
      this.completed.push(0);
    }
    const all = this.engines.map((_, i) => i);
    this.engines.forEach((e, slot) => e.setMembers(slot, all, 0));
  }

  /** The peer in `slot` stops: it neither ticks nor receives (a crash, a pulled cable). */
  stop(slot: number): void {
    this.stopped.add(slot);
  }

  /** The slot table as the others see it after `slot` was dropped (their alive timeout). */
  dropFromTables(slot: number): void {
    const rest = this.engines.map((_, i) => i).filter((i) => i !== slot && !this.stopped.has(i));
    for (const i of rest) (this.engines[i] as LockstepEngine).setMembers(i, rest, this.now);
  }

  private send(from: number, to: number, d: LockstepDatagram): void {
    const o = this.o;
    this.traffic.sent++;
    if (o.drop?.(from, to, d, this.now)) {
      this.traffic.lost++;
      return;
    }
    if (this.rand() * 100 < (o.lossPct ?? 0)) {
      this.traffic.lost++;
      return;
    }
    const copies = this.rand() * 100 < (o.dupPct ?? 0) ? 2 : 1;
    if (copies === 2) this.traffic.duplicated++;
    for (let c = 0; c < copies; c++) {
      let delay = (o.latencyMs ?? 5) + (this.rand() * 2 - 1) * (o.jitterMs ?? 0);
      if (this.rand() * 100 < (o.reorderPct ?? 0)) delay += 10 + this.rand() * 40;
      this.inFlight.push({ at: this.now + Math.max(0, delay), seq: this.seq++, from, to, d });
    }
  }

  /** Runs the virtual clock until `until` ms. */
  runUntil(until: number): void {
    for (;;) {
      let next = Infinity;
      for (let i = 0; i < this.engines.length; i++) if (!this.stopped.has(i)) next = Math.min(next, this.nextTick[i] as number);
      let pkt = -1;
      for (let i = 0; i < this.inFlight.length; i++) {
        const f = this.inFlight[i] as InFlight;
        const best = pkt < 0 ? null : (this.inFlight[pkt] as InFlight);
        if (f.at < next || (best && f.at === next && f.seq < best.seq)) {
          if (!best || f.at < best.at || (f.at === best.at && f.seq < best.seq)) pkt = i;
        }
      }
      const at = pkt >= 0 ? Math.min((this.inFlight[pkt] as InFlight).at, next) : next;
      if (at > until) break;
      this.now = at;
      if (pkt >= 0 && (this.inFlight[pkt] as InFlight).at <= next) {
        const f = this.inFlight.splice(pkt, 1)[0] as InFlight;
        if (!this.stopped.has(f.to)) (this.engines[f.to] as LockstepEngine).receive(f.from, f.d, this.now);
        continue;
      }
      for (let i = 0; i < this.engines.length; i++) {
        if (this.stopped.has(i) || (this.nextTick[i] as number) !== at) continue;
        this.nextTick[i] = at + 25;
        this.tickPeer(i);
      }
    }
    this.now = until;
  }

  private tickPeer(slot: number): void {
    const engine = this.engines[slot] as LockstepEngine;
    const stepped = engine.tick((this.pilots[slot] as () => ShipInput)(), this.now);
    for (const f of stepped) {
      this.completed[slot] = (this.completed[slot] as number) + 1;
      if (!this.diverged.has(slot)) this.record(slot, engine.stats().epoch, f.world);
    }
  }

  private record(slot: number, epoch: number, world: World): void {
    const key = `${epoch}:${world.tick}`;
    const bytes = Buffer.from(encodeWorld(world)).toString('base64');
    const first = this.seen.get(key);
    if (!first) this.seen.set(key, { slot, bytes, peers: 1 });
    else {
      first.peers++;
      if (first.bytes !== bytes && this.mismatches.length < 5) this.mismatches.push(`epoch ${epoch} frame ${world.tick}: slot ${slot} differs from slot ${first.slot}`);
    }
  }

  /** Frames (epoch, frame) that two or more peers completed, so were compared. */
  get framesCompared(): number {
    let n = 0;
    for (const f of this.seen.values()) if (f.peers >= 2) n++;
    return n;
  }

  /** Changes `slot`'s world behind the others' backs; its frames are not compared until a state transfer repairs it. */
  corrupt(slot: number, change: (w: World) => World): void {
    this.diverged.add(slot);
    (this.engines[slot] as LockstepEngine).corrupt(change);
  }

  private heal(slot: number): void {
    this.diverged.delete(slot);
  }

  frameOf(slot: number): number | null {
    return (this.engines[slot] as LockstepEngine).world?.tick ?? null;
  }

  noticesOf(kind: LockstepNotice['kind']): { slot: number; notice: LockstepNotice; at: number }[] {
    return this.notices.filter((n) => n.notice.kind === kind);
  }
}
