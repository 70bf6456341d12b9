/**
 * bench:gameserver's figures per run and its `--sweep` summary: the points
 * it runs (N = 16, 64, 128, 255 all visible — 255 is the most a gameserver
 * seats, the issue's 256 — then N = 255 and 1,000 filtered so each
 * client sees at most 16 others), one line per N, the largest N that holds
 * 20 Hz, and issue 27's targets, each met or missed.
 */
import type { Floor } from './gameserverFloor';
import { allVisibleLayout, filteredLayout, type Layout, type LoadResult } from './gameserverLayout';

export const SEND_HZ = 20;
/** "Holds 20 Hz" and the targets: delivery and forward latency p99. */
export const DELIVERY_LIMIT = 99;
export const P99_LIMIT_MS = 10;
/** Issue 27: N = 16 at ≤ 2 % of one core. */
export const CPU_LIMIT_16 = 2;
/** Past this much CPU taken by other processes (% of a core) a run is marked disturbed. */
export const OTHERS_LIMIT = 10;

/** The sweep: all visible up to 255 (the most a gameserver seats: slots are a byte), then 255 and 1,000 filtered (1,000 over four gameservers on the one core). */
export const SWEEP: Layout[] = [allVisibleLayout(16), allVisibleLayout(64), allVisibleLayout(128), allVisibleLayout(255), filteredLayout(255), filteredLayout(1000)];

/** One measured run: the load's figures and the server's. */
export interface Result {
  layout: Layout;
  load: LoadResult;
  /** CPU of the server and of the load process, % of one core over the measured window. */
  cpuPercent: number;
  loadCpuPercent: number;
  /** CPU the rest of the machine took in the window (every core's busy time but the server's, the load's and the bench's), % of one core. */
  othersPercent: number;
  /** The server's memory at the end (status JSON), bytes. */
  rss: number;
  heapUsed: number;
  /** How late the server's 20 Hz tick ran over its last minute (status JSON at the end): the server's own stalls, apart from the load's. */
  tickLateMs: { p50: number; p99: number };
  /** How long the server's probes waited in its receive queue (its last minute, and the longest), and the states it shed for waiting too long (status JSON at the end). */
  receiveWaitMs: { p50: number; p99: number; max: number };
  statesShed: number;
  /** States the server relayed over the whole run, and how many of them partial (status JSON at the end). */
  statesSent: number;
  statesPartial: number;
  /** The bare relay's CPU and latency for the same N (with --baseline). */
  floor?: Floor;
}

export const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const pct = (n: number, of: number) => (n / Math.max(1, of)) * 100;
const mib = (bytes: number) => `${fmt(bytes / 2 ** 20)} MiB`;

/** A run's figures as the summary and the targets read them. */
export function figures(r: Result) {
  const l = r.load;
  const lost = l.expected - l.received - l.superseded;
  return {
    sendHz: mean(l.sendHz),
    minSendHz: Math.min(...l.sendHz),
    minStateHz: l.minStateHz,
    /** Delivered: received, or superseded (a newer state of that sender arrived first, so the server rightly sent only that). */
    delivery: 100 - pct(lost, l.expected),
    superseded: pct(l.superseded, l.expected),
    unexplained: pct(l.loss.unexplained, l.expected),
    upBps: mean(l.bytesUpPerS),
    downBps: mean(l.bytesDownPerS),
  };
}

/** 20 Hz holds when every client sends at ≥ 19 Hz and gets the states of each client it sees at ≥ 19 Hz. */
export const holds20Hz = (r: Result) => figures(r).minSendHz >= SEND_HZ - 1 && r.load.minStateHz >= SEND_HZ - 1;
/** Holds 20 Hz with ≥ 99 % delivery and p99 ≤ 10 ms. */
export const holds = (r: Result) => holds20Hz(r) && figures(r).delivery >= DELIVERY_LIMIT && r.load.latency.p99 <= P99_LIMIT_MS;

export const pointName = (l: Layout) =>
  `N=${l.bots} ${l.kind} (grid ${l.spacing} units apart, filter radius ${l.filterRadius}${l.servers > 1 ? `; ${l.servers} gameserver processes on the one core, each its own space` : ''}${(l.systems ?? 1) > 1 ? `; ${l.systems} solar systems per server, the clients joining them in turn` : ''})`;

/**
 * `--systems K`: each point measured with one solar system and with K, the server's CPU per player side by
 * side. Target (issue 29): spread over K systems a player costs no more than in one (each system its own
 * interest space: the server costs what its systems cost, not their product).
 */
export function systemsLines(pairs: { one: Result; many: Result }[], systems: number): string[] {
  const lines = ['', `solar systems (issue 29's target: CPU per player over ${systems} systems no worse than in one system):`];
  for (const { one, many } of pairs) {
    const per = (r: Result) => r.cpuPercent / r.layout.bots;
    const ratio = per(many) / per(one);
    lines.push(
      `  N=${String(one.layout.bots).padStart(4)} ${one.layout.kind.padEnd(11)}: one system ${fmt(per(one), 3)} % of a core per player (server ${fmt(one.cpuPercent)} %), ` +
        `${systems} systems ${fmt(per(many), 3)} % per player (server ${fmt(many.cpuPercent)} %, each client seeing ${fmt(many.load.pairs / Math.max(1, many.layout.bots), 1)} others instead of ${fmt(one.load.pairs / Math.max(1, one.layout.bots), 1)}): ` +
        `${fmt(ratio, 2)}× → ${ratio <= 1.05 ? 'met' : 'missed'}${one.othersPercent > OTHERS_LIMIT || many.othersPercent > OTHERS_LIMIT ? ' (DISTURBED: run again on a quiet machine)' : ''}`,
    );
  }
  return lines;
}

/** The lines of one run (per client when there are at most 16). */
export function runLines(r: Result, warmup: number): string[] {
  const l = r.load;
  const f = figures(r);
  const lines = [
    `  load process: CPU ${fmt(r.loadCpuPercent)} % of one core, send ${fmt(f.sendHz)} Hz per client (min ${fmt(f.minSendHz)}, target ${SEND_HZ})` +
      `${r.loadCpuPercent >= 90 || f.minSendHz < SEND_HZ - 1 ? ': the load may be the bottleneck' : ': the load keeps up'}; its sends at worst ${fmt(l.latenessMs)} ms late, its heap ${mib(l.heapUsed)}`,
    `  per client: receive ${fmt(mean(l.recvRelaysHz))} relay datagrams/s carrying ${fmt(mean(l.statesHz))} states/s; up ${fmt(f.upBps / 1024, 2)} KiB/s, down ${fmt(f.downBps / 1024, 2)} KiB/s; ` +
      `states of each client it sees ≥ ${fmt(l.minStateHz)} Hz (${l.pairs} visible pairs)`,
  ];
  if (l.bots <= 16)
    l.names.forEach((name, i) =>
      lines.push(
        `    ${name}: sent ${fmt(l.sendHz[i] ?? NaN)} Hz; received ${fmt(l.recvRelaysHz[i] ?? NaN)} relays/s carrying ${fmt(l.statesHz[i] ?? NaN)} states/s, ` +
          `${fmt((l.bytesDownPerS[i] ?? NaN) / 1024)} KiB/s down, ${fmt((l.bytesUpPerS[i] ?? NaN) / 1024)} KiB/s up (+${l.pings[i]} pings)`,
      ),
    );
  lines.push(
    `  server: CPU ${fmt(r.cpuPercent)} % of one core; RSS ${mib(r.rss)}, heap used ${mib(r.heapUsed)}; its tick late p50 ${fmt(r.tickLateMs.p50, 1)} ms, p99 ${fmt(r.tickLateMs.p99, 1)} ms; ` +
      `datagrams waited to be read p50 ${fmt(r.receiveWaitMs.p50, 1)} ms, p99 ${fmt(r.receiveWaitMs.p99, 1)} ms, longest ${fmt(r.receiveWaitMs.max, 1)} ms; ${r.statesShed} states shed for waiting (status JSON at the end)`,
    `  relayed states sent partial: ${r.statesPartial} of ${r.statesSent} (${fmt((100 * r.statesPartial) / Math.max(1, r.statesSent))} %, whole run; the load could not check ${l.partialUnchecked} sampled Relays holding one, keeping no bases)`,
    `  forward latency (client send → other client receive): p50 ${fmt(l.latency.p50, 2)} ms, p99 ${fmt(l.latency.p99, 2)} ms, max ${fmt(l.latency.max, 2)} ms over ${l.latency.count} states` +
      `${l.duplicates > 0 ? ` (${l.duplicates} duplicates)` : ''}`,
    `    of which after the server sent the datagram (loopback, and the load process's own delays): p50 ${fmt(l.afterSend.p50, 1)} ms, p99 ${fmt(l.afterSend.p99, 1)} ms (±1 ms)`,
    `  states: ${l.received} received, ${l.superseded} superseded (${fmt(f.superseded, 2)} %), delivered ${fmt(f.delivery, 2)} % (received or superseded) of ${l.expected} sent in the ${fmt(l.elapsed)} s window after ${warmup} s of warm-up`,
    ...l.loss.lines,
    `  other processes on this machine took ${fmt(Math.max(0, r.othersPercent))} % of a core in the window${r.othersPercent > OTHERS_LIMIT ? ': the figures above are disturbed, run again on a quiet machine' : ''}`,
    `  reliable messages from the server acknowledged by the clients' link layers: ${l.acked}`,
  );
  return lines;
}

/** The summary after a sweep: a line per point (measured or not), the largest N that holds, issue 27's targets. */
export function summaryLines(points: Layout[], results: Result[], o: { flush: string; tickHz: number; pinning: string; seconds: number; warmup: number; totalSeconds: number; states: string }): string[] {
  const of = (l: Layout) => results.find((r) => r.layout === l);
  const lines = [
    '',
    `summary: flush ${o.flush}, server tick ${o.tickHz} Hz, relayed states ${o.states}, ${o.seconds} s measured per N after ${o.warmup} s of warm-up; ${o.pinning}`,
    `  (holds = every client sends ≥ ${SEND_HZ - 1} Hz and gets each client it sees at ≥ ${SEND_HZ - 1} Hz, delivery ≥ ${DELIVERY_LIMIT} %, p99 ≤ ${P99_LIMIT_MS} ms)`,
  ];
  for (const l of points) {
    const r = of(l);
    const head = `  N=${String(l.bots).padStart(4)} ${l.kind.padEnd(11)}${l.servers > 1 ? ` (${l.servers} servers)` : ''}`;
    if (!r) {
      lines.push(`${head}: not measured (refused, above)`);
      continue;
    }
    const f = figures(r);
    lines.push(
      `${head}: send ${fmt(f.sendHz)} Hz (min ${fmt(f.minSendHz)}), states/seen client ≥ ${fmt(r.load.minStateHz)} Hz, delivery ${fmt(f.delivery, 2)} % (unexplained ${fmt(f.unexplained, 2)} %), ` +
        `latency p50 ${fmt(r.load.latency.p50, 2)} / p99 ${fmt(r.load.latency.p99, 2)} ms, server CPU ${fmt(r.cpuPercent)} %, ` +
        `up ${fmt(f.upBps / 1024, 2)} / down ${fmt(f.downBps / 1024, 2)} KiB/s per client, server RSS ${mib(r.rss)} heap ${mib(r.heapUsed)}, load CPU ${fmt(r.loadCpuPercent)} %` +
        `${r.othersPercent > OTHERS_LIMIT ? `, DISTURBED (others took ${fmt(r.othersPercent)} % of a core)` : ''}` +
        `${r.floor ? ` (bare relay: CPU ${fmt(r.floor.cpuPercent)} %, p50 ${fmt(r.floor.p50, 2)} / p99 ${fmt(r.floor.p99, 2)} ms)` : ''} → ${holds(r) ? 'holds' : 'no'}`,
    );
  }
  const best = results.filter(holds).map((r) => r.layout.bots);
  lines.push(`largest N holding ${SEND_HZ} Hz with ≥ ${DELIVERY_LIMIT} % delivery and p99 ≤ ${P99_LIMIT_MS} ms: ${best.length ? Math.max(...best) : `none of ${points.map((l) => l.bots).join(', ')}`}`);

  const target = (what: string, r: Result | undefined, met: (r: Result) => boolean, says: (r: Result) => string) =>
    `  ${what}: ${r ? `${met(r) ? 'met' : 'missed'} (${says(r)})` : 'missed (not measured: refused)'}`;
  const find = (bots: number, kind: Layout['kind']) => results.find((r) => r.layout.bots === bots && r.layout.kind === kind);
  lines.push(
    "issue 27's targets:",
    target(`all visible N=255 (the issue's 256; a gameserver seats 255) at ${SEND_HZ} Hz, ≥ ${DELIVERY_LIMIT} % delivery, p99 ≤ ${P99_LIMIT_MS} ms`, find(255, 'all visible'), holds, (r) => {
      const f = figures(r);
      return `send min ${fmt(f.minSendHz)} Hz, states/seen client ≥ ${fmt(r.load.minStateHz)} Hz, delivery ${fmt(f.delivery, 2)} %, p99 ${fmt(r.load.latency.p99, 2)} ms`;
    }),
    target(`N=16 at ≤ ${CPU_LIMIT_16} % of a core`, find(16, 'all visible'), (r) => r.cpuPercent <= CPU_LIMIT_16, (r) => `server CPU ${fmt(r.cpuPercent)} %`),
    target(`N=1,000 filtered with ≥ ${DELIVERY_LIMIT} % delivery (four gameservers of 250 on the one core)`, find(1000, 'filtered'), (r) => figures(r).delivery >= DELIVERY_LIMIT, (r) => `delivery ${fmt(figures(r).delivery, 2)} %`),
    `total time ${fmt(o.totalSeconds)} s`,
  );
  return lines;
}
