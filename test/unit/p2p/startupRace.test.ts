/**
 * Start-up races: 2–6 nodes call connect() within the same 10 ms on a lossy
 * simulated LAN (1,000 seeds per node count). Every node must end with a
 * slot or a 'game-full' refusal within the bound STATE-MACHINE.md
 * documents, and all slot tables must agree.
 */
import { describe, expect, it } from 'vitest';
import { addrKey } from '../../../src/shared/wire/addr';
import { DEFAULT_P2P_CONFIG } from '../../../src/shared/p2p';
import { agreedTable, mulberry32, noticesOf, settledAt, SimNet, tableKey, type SimNetOptions, type SimNode } from '../../support/simnet';

const CFG = DEFAULT_P2P_CONFIG;
const STEP_MS = 5;
/** All nodes call connect() within this many ms of each other. */
const SPREAD_MS = 10;
/** Hard bound (any loss pattern): connect() + startup window + slave timeout + one tick. */
const HARD_BOUND_MS = CFG.startupWindowMs + CFG.slaveTimeoutMs + STEP_MS;

const LOSSY: Omit<SimNetOptions, 'seed'> = { latencyMs: [1, 30], loss: 0.05, duplicate: 0.02, reorder: 0.05, reorderDelayMs: 30, stepMs: STEP_MS };
const LOSS_FREE: Omit<SimNetOptions, 'seed'> = { latencyMs: [1, 30], reorder: 0.05, reorderDelayMs: 30, stepMs: STEP_MS };

interface RaceResult {
  problems: string[];
  /** Per node: ms from its connect() to its 'connected' notice (connected nodes only). */
  connectMs: number[];
  maxDelayMs: number;
}

/** One seeded race; returns what went wrong (empty = all invariants held). */
function race(seed: number, n: number, netOpts: Omit<SimNetOptions, 'seed'>): RaceResult {
  const rand = mulberry32(seed * 7919 + n);
  const net = new SimNet({ ...netOpts, seed });
  const indexes = new Set<number>();
  while (indexes.size < n) indexes.add(1 + Math.floor(rand() * 250));
  const nodes = [...indexes].map((i) => net.addNode(i));
  for (const node of nodes) net.schedule(Math.floor(rand() * (SPREAD_MS + 1)), () => net.connect(node));
  const slotted = Math.min(n, CFG.maxPlayers);
  const settled = () =>
    nodes.every((x) => x.connectAt !== null && (x.peer.state === 'connected' || x.peer.state === 'failed')) &&
    nodes.filter((x) => x.peer.state === 'connected').length === slotted &&
    agreedTable(nodes) !== null;

  const problems: string[] = [];
  const where = `seed ${seed}, ${n} nodes`;
  if (!net.runUntil(settled, SPREAD_MS + HARD_BOUND_MS)) {
    problems.push(`${where}: not settled after ${net.now} ms: ${nodes.map((x) => `${x.index}:${x.peer.state}[${tableKey(x)}]`).join(' ')}`);
    return { problems, connectMs: [], maxDelayMs: net.maxDelayMs };
  }
  const agreedAt = net.now;
  const firstConnect = Math.min(...nodes.map((x) => x.connectAt ?? 0));
  if (agreedAt - firstConnect > SPREAD_MS + HARD_BOUND_MS) problems.push(`${where}: tables agreed only at ${agreedAt} ms`);

  const connected = nodes.filter((x) => x.peer.state === 'connected');
  const failed = nodes.filter((x) => x.peer.state === 'failed');
  const table = connected[0]?.peer.players() ?? [];
  const connectMs: number[] = [];
  for (const x of nodes) {
    const end = settledAt(x);
    if (end === null || end - (x.connectAt ?? 0) > HARD_BOUND_MS) problems.push(`${where}: node ${x.index} settled at ${end} (connect at ${x.connectAt})`);
    if (noticesOf(x, 'connected').length + noticesOf(x, 'failed').length !== 1) problems.push(`${where}: node ${x.index} got ${x.notices.map((m) => m.notice.kind).join(',')}`);
    if (noticesOf(x, 'disconnected').length > 0 || noticesOf(x, 'player-removed').length > 0) problems.push(`${where}: node ${x.index} saw a removal/eviction`);
    for (const f of noticesOf(x, 'failed')) {
      if (f.notice.reason !== 'game-full' || f.notice.message !== `game full (${CFG.maxPlayers} of ${CFG.maxPlayers} slots taken)`) problems.push(`${where}: node ${x.index} failed: ${f.notice.message}`);
    }
    const c = noticesOf(x, 'connected')[0];
    if (c) connectMs.push(c.at - (x.connectAt ?? 0));
  }
  if (failed.length !== n - slotted) problems.push(`${where}: ${failed.length} failed, expected ${n - slotted}`);
  // The table holds exactly the connected nodes, each at the slot it believes it has, all below maxPlayers.
  const tableAddrs = table.map((p) => addrKey(p.addr)).sort();
  if (JSON.stringify(tableAddrs) !== JSON.stringify(connected.map((x) => x.key).sort())) problems.push(`${where}: table ${tableKey(connected[0] as SimNode)} is not the connected set`);
  for (const x of connected) {
    if (table.find((p) => addrKey(p.addr) === x.key)?.slot !== x.peer.slot()) problems.push(`${where}: node ${x.index} has slot ${x.peer.slot()} but the table says otherwise`);
  }
  if (new Set(table.map((p) => p.slot)).size !== table.length || table.some((p) => p.slot >= CFG.maxPlayers)) problems.push(`${where}: bad slots ${tableKey(connected[0] as SimNode)}`);

  // Stable afterwards: a second of play changes nothing.
  const before = agreedTable(nodes);
  net.run(1000);
  if (agreedTable(nodes) !== before || nodes.some((x) => x.peer.state !== (connected.includes(x) ? 'connected' : 'failed'))) problems.push(`${where}: tables changed after settling`);
  return { problems, connectMs, maxDelayMs: net.maxDelayMs };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

describe('p2p start-up races (2–6 nodes connect within 10 ms, maxPlayers 4)', () => {
  for (const n of [2, 3, 4, 5, 6]) {
    it(`${n} nodes, 1,000 seeds, 5% loss + 2% duplication + reordering: min(n, 4) connected with one table, the rest refused as full, all within the hard bound`, { timeout: 30_000 }, () => {
      const problems: string[] = [];
      const times: number[] = [];
      for (let seed = 1; seed <= 1000; seed++) {
        const r = race(seed, n, LOSSY);
        problems.push(...r.problems);
        times.push(...r.connectMs);
      }
      times.sort((a, b) => a - b);
      console.log(`p2p race, ${n} nodes, lossy: connect→connected median ${percentile(times, 0.5)} ms, p99 ${percentile(times, 0.99)} ms, max ${times.at(-1)} ms (hard bound ${HARD_BOUND_MS} ms)`);
      expect(problems.slice(0, 10)).toEqual([]);
    });
  }

  it('loss-free (latency 1–30 ms + reordering up to 30 ms more), 200 seeds per node count: every slotted node is connected within spread + window + max delay + one tick', { timeout: 30_000 }, () => {
    const problems: string[] = [];
    let worst = 0;
    for (const n of [2, 3, 4, 5, 6]) {
      for (let seed = 1; seed <= 200; seed++) {
        const r = race(seed, n, LOSS_FREE);
        problems.push(...r.problems);
        const bound = SPREAD_MS + CFG.startupWindowMs + r.maxDelayMs + STEP_MS;
        for (const t of r.connectMs) {
          worst = Math.max(worst, t);
          if (t > bound) problems.push(`seed ${seed}, ${n} nodes: connected after ${t} ms > ${bound} ms`);
        }
      }
    }
    console.log(`p2p race, loss-free: slowest connect ${worst} ms (bound ${SPREAD_MS + CFG.startupWindowMs + 60 + STEP_MS} ms)`);
    expect(problems.slice(0, 10)).toEqual([]);
  });
});
