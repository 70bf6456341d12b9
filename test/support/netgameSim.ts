/**
 * A netgame server and its clients on a simulated network with a virtual
 * clock: real NetgameServer and NetgameClient objects, each ticking every
 * 25 ms (the clients with their own phases), their events carried after a
 * one-way delay with jitter and lost at a seeded rate. The server's state
 * bytes of every frame are kept, so a test can check that every client
 * stepped to exactly the server's state. A client can be stopped (as by
 * SIGSTOP: it neither ticks nor reads, what is sent to it waits) and run
 * again; the server's sync-gate drops are recorded.
 */
import { NetgameServer, type NetgameDrop } from '../../src/shared/netgame/server';
import { NetgameClient, type NetgameClientNotice } from '../../src/shared/netgame/client';
import { encodeNetState } from '../../src/shared/netgame/netState';
import type { GameMove } from '../../src/shared/netgame/gameMoves';
import type { ShipInput } from '../../src/shared/game/types';
import type { NetgameEvent, RemoteEvent } from '../../src/shared/wire/types';
import { prng } from './lockstepSim';
import { zlibPacker } from '../../src/node/lockstep/zlibPacker';

export interface NetgameSimOptions {
  clients: number;
  seed: number;
  /** One-way delay and its ± jitter, ms. */
  latencyMs: number;
  jitterMs: number;
  lossPct: number;
  /** The server's sync-gate limit (default the seed's 100). */
  maxBehindFrames?: number;
}

interface InFlight {
  at: number;
  seq: number;
  to: number; // -1: the server
  from: number;
  ev: NetgameEvent;
}

export class NetgameSim {
  readonly server: NetgameServer;
  readonly clients: NetgameClient[] = [];
  readonly notices: { slot: number; notice: NetgameClientNotice; at: number }[] = [];
  /** The server's state bytes by frame (base64). */
  private readonly serverStates = new Map<number, string>();
  readonly mismatches: string[] = [];
  compared = 0;
  now = 0;
  private readonly inFlight: InFlight[] = [];
  private seq = 0;
  private readonly rand: () => number;
  private readonly phases: number[] = [];
  private serverNext = 0;
  private readonly clientNext: number[] = [];
  readonly pilots: (() => ShipInput)[] = [];
  /** The pilot input each client gave last. */
  readonly lastInputs: ShipInput[] = [];
  private readonly diverged = new Set<number>();
  /** Called with the moves the server applied at each frame. */
  onServerFrame?: (moves: readonly GameMove[]) => void;
  /** Called with each pilot input (slot, input) once its client is in the game. */
  onPilot?: (slot: number, input: ShipInput) => void;
  /** Called with every event a client sends, before the network may lose it. */
  onClientSend?: (slot: number, ev: NetgameEvent, at: number) => void;
  /** Clients the sync gate dropped, and when. */
  readonly drops: (NetgameDrop & { at: number })[] = [];
  /** Stopped clients (by slot): they neither tick nor read until run again. */
  private readonly stopped = new Set<number>();

  constructor(private readonly o: NetgameSimOptions) {
    this.rand = prng(o.seed);
    this.server = new NetgameServer({ seed: 0x5741524c, send: (slot, events) => this.send(-1, slot, events), packer: zlibPacker(), ...(o.maxBehindFrames === undefined ? {} : { maxBehindFrames: o.maxBehindFrames }) });
    for (let i = 0; i < o.clients; i++) {
      const slot = i + 1;
      const pilotRand = prng(o.seed * 97 + slot);
      let current: ShipInput = { thrust: 1, yaw: 0, pitch: 0, roll: 0, fire: false };
      let until = 0;
      // A pilot holds its controls for 0.2–1 s, then changes them: thrust mostly forward, turning, firing now and then.
      this.pilots.push(() => {
        if (this.now >= until) {
          current = { thrust: pilotRand() < 0.8 ? 1 : pilotRand() * 2 - 1, yaw: pilotRand() * 2 - 1, pitch: pilotRand() - 0.5, roll: 0, fire: pilotRand() < 0.3 };
          until = this.now + 200 + pilotRand() * 800;
        }
        return current;
      });
      this.lastInputs.push(current);
      this.clients.push(
        new NetgameClient({
          send: (events) => this.send(slot, -1, events),
          packer: zlibPacker(),
          notify: (notice) => {
            this.notices.push({ slot, notice, at: this.now });
            if (notice.kind === 'corrected') this.diverged.delete(slot);
          },
        }),
      );
      this.phases.push(Math.floor(this.rand() * 25));
      this.clientNext.push(this.phases[i] as number);
      this.server.join(slot, 0);
    }
  }

  /** Stops client `slot` (as SIGSTOP does): it neither ticks nor reads until {@link resume}. */
  stop(slot: number): void {
    this.stopped.add(slot);
  }

  /** Runs client `slot` again: what waited for it arrives now, in order. */
  resume(slot: number): void {
    this.stopped.delete(slot);
    for (const f of this.inFlight) if (f.to === slot && f.at < this.now) f.at = this.now;
  }

  /** Changes client `slot`'s state behind everyone's back; its frames are not compared until it is corrected. */
  corrupt(slot: number, change: Parameters<NetgameClient['corrupt']>[0]): void {
    this.diverged.add(slot);
    this.clients[slot - 1]?.corrupt(change);
  }

  private send(from: number, to: number, events: RemoteEvent[]): void {
    for (const ev of events) {
      if (from !== -1) this.onClientSend?.(from, ev as NetgameEvent, this.now);
      if (this.rand() * 100 < this.o.lossPct) continue;
      const delay = this.o.latencyMs + (this.rand() * 2 - 1) * this.o.jitterMs;
      this.inFlight.push({ at: this.now + Math.max(0, delay), seq: this.seq++, from, to, ev: ev as NetgameEvent });
    }
  }

  runUntil(until: number): void {
    for (;;) {
      let next = Math.min(this.serverNext, ...this.clientNext);
      let pkt = -1;
      for (let i = 0; i < this.inFlight.length; i++) {
        const f = this.inFlight[i] as InFlight;
        if (f.to !== -1 && this.stopped.has(f.to)) continue;
        if (f.at <= next && (pkt < 0 || f.at < (this.inFlight[pkt] as InFlight).at || (f.at === (this.inFlight[pkt] as InFlight).at && f.seq < (this.inFlight[pkt] as InFlight).seq))) pkt = i;
      }
      if (pkt >= 0) next = (this.inFlight[pkt] as InFlight).at;
      if (next > until) break;
      this.now = next;
      if (pkt >= 0) {
        const f = this.inFlight.splice(pkt, 1)[0] as InFlight;
        if (f.to === -1) this.server.receive(f.from, f.ev, this.now);
        else this.clients[f.to - 1]?.receive(f.ev, this.now);
        continue;
      }
      if (this.serverNext === next) {
        this.serverNext += 25;
        this.onServerFrame?.(this.server.moves.forFrame(this.server.frame));
        for (const d of this.server.tick(this.now)) this.drops.push({ ...d, at: this.now });
        this.serverStates.set(this.server.frame, Buffer.from(encodeNetState(this.server.state)).toString('base64'));
      }
      this.clientNext.forEach((t, i) => {
        if (t !== next) return;
        this.clientNext[i] = t + 25;
        if (this.stopped.has(i + 1)) return;
        const input = (this.pilots[i] as () => ShipInput)();
        this.lastInputs[i] = input;
        const client = this.clients[i] as NetgameClient;
        // A pilot steers once its ship is in the game (the server activated its client).
        if (client.active) this.onPilot?.(i + 1, input);
        for (const f of client.tick(input, this.now)) this.compare(i + 1, f.world.tick, client);
      });
    }
    this.now = until;
  }

  private compare(slot: number, frame: number, client: NetgameClient): void {
    if (this.diverged.has(slot) || !client.state || client.state.world.tick !== frame) return;
    const server = this.serverStates.get(frame);
    if (server === undefined) return;
    this.compared++;
    if (server !== Buffer.from(encodeNetState(client.state)).toString('base64') && this.mismatches.length < 5) this.mismatches.push(`client ${slot} frame ${frame}`);
  }
}
