/**
 * Where bench:gameserver's clients fly, and what the bench process and its
 * load process (gameserverLoad.ts) say to each other.
 *
 * Clients sit on a square grid in the x–y plane (each flies along −Z at one
 * unit a send, with a wobble of ±1 in x, so their lasers, fired straight
 * ahead, pass no other ship):
 *  - all visible: 20 units apart (ship radius 6), the server's default
 *    filter radius (2,000): 256 clients span 300 × 300 units, every pair
 *    within 425 units of each other;
 *  - filtered: 100 units apart with a filter radius of 210, so a client
 *    sees its neighbours up to 2 grid steps away (12 inside the grid, fewer
 *    at its edges; the next ring, √5 × 100 = 224 units, is filtered).
 *
 * More clients than one gameserver seats (255) are spread over several
 * gameserver processes (all on the server's one core), each its own space:
 * client i plays on server ⌊i × servers / N⌋, a block of neighbouring grid
 * places, and sees only the clients of its own server.
 */
import type { ServerTally } from './gameserverLoss';

/** The server's default --filter-radius (gameserverOptions.ts). */
export const DEFAULT_FILTER_RADIUS = 2000;

export interface Layout {
  kind: 'all visible' | 'filtered';
  bots: number;
  spacing: number;
  columns: number;
  /** The server's --filter-radius for this layout. */
  filterRadius: number;
  /** Gameserver processes the clients are spread over (1 unless more than one seats). */
  servers: number;
  /** Solar systems each gameserver hosts (`--systems`; absent: 1), every one an entry: its clients join them in turn. */
  systems?: number;
}

/** `l` with its clients spread over `systems` solar systems of each gameserver. */
export function withSystems(l: Layout, systems: number): Layout {
  return systems > 1 ? { ...l, systems } : l;
}

/**
 * The solar system (0-based) client `i` plays in: a gameserver seats each newcomer in the entry
 * system with fewest players, the first of those tied, so its clients, joining in order, go round them.
 */
export function systemOf(l: Layout, i: number): number {
  const k = l.systems ?? 1;
  if (k <= 1) return 0;
  let first = i;
  while (first > 0 && serverOf(l, first - 1) === serverOf(l, i)) first -= 1;
  return (i - first) % k;
}

/** The most players a gameserver seats (--max-players 1..255: a slot is a byte). */
export const SEATS_PER_SERVER = 255;
/** Gameservers `bots` clients need. */
const serversFor = (bots: number) => Math.ceil(bots / SEATS_PER_SERVER);

/** The gameserver (0-based) client `i` plays on. */
export function serverOf(l: Layout, i: number): number {
  return Math.floor((i * l.servers) / l.bots);
}

/** Clients of server `k`. */
export function clientsOf(l: Layout, k: number): number {
  let n = 0;
  for (let i = 0; i < l.bots; i++) if (serverOf(l, i) === k) n += 1;
  return n;
}

export function allVisibleLayout(bots: number): Layout {
  const l: Layout = { kind: 'all visible', bots, spacing: 20, columns: Math.ceil(Math.sqrt(bots)), filterRadius: DEFAULT_FILTER_RADIUS, servers: serversFor(bots) };
  const rows = Math.ceil(bots / l.columns);
  // Room for the wobble (±1) and the clients' drift apart along Z (a few units over a run).
  if (Math.hypot((l.columns - 1) * l.spacing, (rows - 1) * l.spacing) + 50 > l.filterRadius) throw new RangeError(`${bots} clients do not fit within the filter radius on a ${l.spacing}-unit grid`);
  return l;
}

export function filteredLayout(bots: number): Layout {
  return { kind: 'filtered', bots, spacing: 100, columns: Math.ceil(Math.sqrt(bots)), filterRadius: 210, servers: serversFor(bots) };
}

/** Client `i`'s place on the grid (its x and y; z is where it has flown). */
export function gridPosition(l: Layout, i: number): { x: number; y: number } {
  return { x: (i % l.columns) * l.spacing, y: Math.floor(i / l.columns) * l.spacing };
}

/** Whether clients `a` and `b` see each other: on the same server, in the same solar system, within the filter radius (by their grid places). */
export function visible(l: Layout, a: number, b: number): boolean {
  if (l.servers > 1 && serverOf(l, a) !== serverOf(l, b)) return false;
  if ((l.systems ?? 1) > 1 && systemOf(l, a) !== systemOf(l, b)) return false;
  const p = gridPosition(l, a);
  const q = gridPosition(l, b);
  return Math.hypot(p.x - q.x, p.y - q.y) <= l.filterRadius;
}

/** The most other clients any one client sees. */
export function mostVisible(l: Layout): number {
  let most = 0;
  for (let a = 0; a < l.bots; a++) {
    let n = 0;
    for (let b = 0; b < l.bots; b++) if (a !== b && visible(l, a, b)) n += 1;
    most = Math.max(most, n);
  }
  return most;
}

/** What the load process measured over the window (rates per second of its `elapsed`). */
export interface LoadResult {
  bots: number;
  elapsed: number;
  /** Per client: GameStates sent per second in the window. */
  sendHz: number[];
  /** Per client: relay datagrams and bytes received per second, bytes sent per second, pings received (count). */
  recvRelaysHz: number[];
  bytesDownPerS: number[];
  bytesUpPerS: number[];
  pings: number[];
  /** Per client: states per second received from all the others. */
  statesHz: number[];
  /** Lowest rate at which a client got the states of one client it sees. */
  minStateHz: number;
  /** Visible pairs (receiver, sender). */
  pairs: number;
  expected: number;
  received: number;
  superseded: number;
  latency: { p50: number; p99: number; max: number; count: number };
  /** Of that: how long relay datagrams took after the server sent them (ms; their header's server time against the load's clock). */
  afterSend: { p50: number; p99: number };
  /** How late the load's send loop ran at worst in the window (ms after the earliest send it waited for was due). */
  latenessMs: number;
  /** States received late (after the first receipt of the same state): duplicates. */
  duplicates: number;
  /** Sampled relay datagrams decoded in full, and how many failed. */
  checked: number;
  /** Sampled Relays holding a partial state (the load keeps no bases to decode them). */
  partialUnchecked: number;
  bad: number;
  /** Reliable messages the clients' link layers acknowledged. */
  acked: number;
  names: string[];
  /** Where the lost states went (gameserverLoss.ts): its lines, and the states none of the counters explain. */
  loss: { lines: string[]; unexplained: number };
  /** The load process's own heap at the end (bytes). */
  heapUsed: number;
}

/** Bench → load process. */
export type ToLoad =
  | { type: 'join'; tcp: number[]; http: number[]; layout: Layout; sendHz: number; seconds: number; relayAcks: boolean }
  | { type: 'measure' }
  | { type: 'stop' }
  | { type: 'mute' }
  | { type: 'result'; status: ServerTally }
  | { type: 'close' };

/** Load process → bench. */
export type FromLoad =
  | { type: 'joined'; first: string; last: string }
  | { type: 'refused'; message: string }
  | { type: 'measuring' }
  | { type: 'stopped' }
  | { type: 'muted' }
  | { type: 'result'; result: LoadResult }
  | { type: 'error'; message: string };
