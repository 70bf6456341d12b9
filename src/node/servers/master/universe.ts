/**
 * The masterserver as the universe's router (issue 29; the CESCG paper §4):
 * with a universe key (`--universe-key`) it challenges every server that
 * joins, and a server that answers with the key's proof becomes a member —
 * only members are ever a jump's destination; any server may still be
 * listed. Members say which solar systems they host and where their gates
 * lead (`system:` lines); a member asks where a system is (`route:`) and is
 * told the member that hosts it (the one with fewest players in it) or why
 * none can take the jump; it hands a jumping ship's carried state to the
 * destination (`carry:`), which the masterserver forwards unread (it is
 * MACed with the key: jumpTicket.ts). Without a key it routes nothing and
 * says so. Lines: src/shared/servers/universeProtocol.ts. Pure of sockets:
 * the masterserver hands it each connection's entry and lines.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CLOCK_ACKNOWLEDGED, formatUniverseReply, parseUniverseRequest, type SystemLine, type UniverseReply } from '../../../shared/servers/universeProtocol';
import type { Logger } from '../../log';

/** Most solar systems one server may announce (galaxyMap.ts MAX_SYSTEMS). */
const MAX_SYSTEMS = 16;

/** What the universe keeps of one listed server. */
export interface UniverseSeat {
  /** Its registered name and join port, as tickets name it (`name:port`). */
  readonly id: () => string;
  readonly address: () => string;
  readonly port: () => number | null;
  send(line: string): void;
  /** The challenge it was sent (hex), until it proves the key. */
  challenge: string | null;
  member: boolean;
  systems: Map<string, SystemLine>;
  epoch: number | null;
}

/** A solar system on the universe page: its server, players, gates (each reachable or not). */
export interface UniverseSystem {
  name: string;
  server: string;
  member: boolean;
  players: number;
  gates: { to: string; reachable: boolean }[];
}

export const proofOf = (key: Buffer, challenge: string, name: string, port: number | null): string =>
  createHmac('sha256', key).update(`starlane universe proof 1|${challenge}|${name}|${port ?? '?'}`).digest('hex');

export class Universe {
  readonly counters = { proofs: 0, proofsRefused: 0, routes: 0, routesRefused: 0, carried: 0, carriesRefused: 0 };

  constructor(
    private readonly key: Buffer | null,
    private readonly seats: () => Iterable<UniverseSeat>,
    private readonly log: Logger,
  ) {}

  /** Whether this masterserver routes jumps (it has a key). */
  get routing(): boolean {
    return this.key !== null;
  }

  /** A server joined over `seat`: with a key, it is challenged to prove it. */
  joined(seat: UniverseSeat): void {
    seat.member = false;
    if (!this.key) return;
    seat.challenge = randomBytes(16).toString('hex');
    seat.send(formatUniverseReply({ kind: 'challenge', nonce: seat.challenge }));
  }

  /**
   * A line from a joined server that may be a universe line: handled (true), or not one (false: the
   * masterserver's own parser has it). `name`: the server's registered name.
   */
  line(seat: UniverseSeat, name: string, line: string): boolean {
    const r = parseUniverseRequest(line);
    if (!r) return false;
    const reply = (x: UniverseReply) => seat.send(formatUniverseReply(x));
    switch (r.kind) {
      case 'proof': {
        const expected = this.key && seat.challenge ? proofOf(this.key, seat.challenge, name, seat.port()) : null;
        const ok = expected !== null && sameProof(expected, r.proof);
        seat.challenge = null;
        seat.member = ok;
        if (ok) this.counters.proofs += 1;
        else this.counters.proofsRefused += 1;
        this.log[ok ? 'info' : 'warn']({ server: seat.id(), address: seat.address() }, ok ? 'server proved the universe key: a jump destination' : 'server failed the universe key proof: listed, never a jump destination');
        reply({ kind: ok ? 'member' : 'proof-refused' });
        return true;
      }
      case 'system':
        if (seat.systems.has(r.name.toLowerCase()) || seat.systems.size < MAX_SYSTEMS) seat.systems.set(r.name.toLowerCase(), { name: r.name, players: r.players, gates: r.gates });
        reply({ kind: 'acknowledged' });
        return true;
      case 'clock':
        seat.epoch = r.epoch;
        seat.send(CLOCK_ACKNOWLEDGED);
        return true;
      case 'route': {
        const found = this.route(seat, r.system);
        if ('why' in found) {
          this.counters.routesRefused += 1;
          reply({ kind: 'route-refused', ref: r.ref, why: found.why });
        } else {
          this.counters.routes += 1;
          reply({ kind: 'route', ref: r.ref, ...found });
        }
        return true;
      }
      case 'carry': {
        const to = seat.member ? [...this.seats()].find((s) => s.member && s.id() === r.to) : undefined;
        if (!to) {
          this.counters.carriesRefused += 1;
          const why = seat.member ? 'no server of the universe by that name' : 'only a member of the universe may carry a ship';
          reply({ kind: 'carry-refused', id: r.id, why });
          return true;
        }
        to.send(formatUniverseReply({ kind: 'carry', id: r.id, state: r.state }));
        this.counters.carried += 1;
        reply({ kind: 'carry-forwarded', id: r.id });
        return true;
      }
    }
  }

  /** Where `system` is for a jump from `from`: the member hosting it with fewest players there, or why there is none. */
  private route(from: UniverseSeat, system: string): { host: string; port: number; server: string; epoch: number } | { why: string } {
    if (!this.key) return { why: 'this masterserver routes no jumps (it has no universe key)' };
    if (!from.member) return { why: 'this server has not proved the universe key' };
    const key = system.toLowerCase();
    const hosting = [...this.seats()].filter((s) => s !== from && s.systems.has(key));
    const members = hosting.filter((s) => s.member && s.port() !== null && s.epoch !== null);
    if (members.length === 0) return { why: hosting.length > 0 ? `the server with ${system} is not in this universe` : `no server has the solar system ${system}` };
    const best = members.reduce((a, b) => ((b.systems.get(key)?.players ?? 0) < (a.systems.get(key)?.players ?? 0) ? b : a));
    return { host: best.address(), port: best.port() as number, server: best.id(), epoch: best.epoch as number };
  }

  /** Every listed server's solar systems, each gate marked reachable when a member hosts its destination. */
  systems(): UniverseSystem[] {
    const seats = [...this.seats()];
    const hosted = new Set(seats.filter((s) => s.member).flatMap((s) => [...s.systems.keys()]));
    return seats.flatMap((s) =>
      [...s.systems.values()].map((sys) => ({
        name: sys.name,
        server: s.id(),
        member: s.member,
        players: sys.players,
        gates: sys.gates.map((to) => ({ to, reachable: hosted.has(to.toLowerCase()) })),
      })),
    );
  }
}

/** Compares two hex proofs of equal length without leaking where they differ. */
export function sameProof(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
