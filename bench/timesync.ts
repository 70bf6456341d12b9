/**
 * Time-sync accuracy benchmark (`npm run bench:timesync -- [--trials N]
 * [--loopback-trials N]`). Prints, for the default client settings
 * (src/shared/time/timeSync.ts):
 *  - virtual clock, N seeded trials per path (default 100): |error| of the
 *    client's common time at the moment it becomes ready and over the
 *    following 30 s of refresh (p50 / p95 / max), and time to ready. Paths:
 *    50 ± 10 ms each way with 5 ppm drift (the design target: ≤ 1 ms p95),
 *    the same with 3% of datagrams delayed 500 ms, with 10% loss, a quiet
 *    LAN, a 50 ± 30 ms path (beyond what the window can average away), and
 *    20 ppm drift over five minutes (the rolling window's lag);
 *  - real loopback UDP sockets through the link conditioner (50 ± 10 ms each
 *    way), N trials (default 10), five at a time: the error at ready and two
 *    seconds later, and time to ready. Both ends read this process's
 *    performance.now(), so the error is measured exactly.
 * Figures only; nothing here passes or fails. Exits by itself.
 */
import { Command, InvalidArgumentError } from 'commander';
import { UdpPacketApi } from '../src/node/packet/udp';
import { ConditionedPacketApi } from '../src/shared/net/conditionedPacketApi';
import { isTimeDatagram, TIME_SYNC_DEFAULTS, TimeResponder, TimeSyncClient } from '../src/shared/time';
import { percentile, runTrials, type PathOptions } from '../test/unit/time/virtualPath';

const KNOWN_OFFSET = 123_456.789;
const POLL_MS = 10;
const LOOPBACK_BATCH = 5;

const count = (max: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new InvalidArgumentError(`must be an integer from 1 to ${max}`);
  return n;
};
const program = new Command('bench:timesync')
  .description('Prints the accuracy of time synchronisation on a virtual clock and on real loopback sockets.')
  .option('--trials <n>', 'seeded virtual-clock trials per path (1-10000)', count(10_000), 100)
  .option('--loopback-trials <n>', 'real loopback trials through the link conditioner, 50 ± 10 ms each way (0-100)', (v) => (v === '0' ? 0 : count(100)(v)), 10)
  .parse();
const o = program.opts<{ trials: number; loopbackTrials: number }>();

const ms = (n: number, digits = 3): string => (Number.isNaN(n) ? '-' : n.toFixed(digits));
const three = (v: number[]): string => `p50 ${ms(percentile(v, 0.5))}  p95 ${ms(percentile(v, 0.95))}  max ${ms(Math.max(...v))}`;

const d = TIME_SYNC_DEFAULTS;
console.log(
  `client settings: burst every ${d.burstIntervalMs} ms, refresh every ${d.refreshIntervalMs} ms, window ${d.windowSize} samples, ` +
    `ready at ≥ ${d.minSamples} kept samples and standard error ≤ ${d.readyStandardErrorMs} ms (or a full window)\n`,
);

const paths: [string, Omit<PathOptions, 'seed'>][] = [
  ['50 ± 10 ms, 5 ppm drift (target)', { driftPpm: 5 }],
  ['50 ± 10 ms, 3% delayed 500 ms', { outlierPct: 3, outlierDelayMs: 500 }],
  ['50 ± 10 ms, 10% loss each way', { lossPct: 10 }],
  ['LAN 0.2 ± 0.05 ms', { lagMs: 0.2, jitterMs: 0.05 }],
  ['50 ± 30 ms (very jittery)', { jitterMs: 30 }],
  ['50 ± 10 ms, 20 ppm drift, 5 min', { driftPpm: 20, durationMs: 300_000, sampleEveryMs: 1000 }],
];
console.log(`virtual clock, ${o.trials} trials per path; |error| in ms, time to ready in ms`);
for (const [label, path] of paths) {
  const started = performance.now();
  const s = runTrials(o.trials, { serverOffsetMs: KNOWN_OFFSET, durationMs: 30_000, ...path });
  console.log(`  ${label}  (${s.readyTrials}/${s.trials} ready, ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`    at ready     p50 ${ms(s.atReady.p50)}  p95 ${ms(s.atReady.p95)}  max ${ms(s.atReady.max)}`);
  console.log(`    after ready  p50 ${ms(s.afterReady.p50)}  p95 ${ms(s.afterReady.p95)}  max ${ms(s.afterReady.max)}`);
  console.log(`    time to ready p50 ${ms(s.readyTime.p50, 0)}  p95 ${ms(s.readyTime.p95, 0)}  max ${ms(s.readyTime.max, 0)}`);
}

interface LoopbackResult {
  readyMs: number;
  errorAtReady: number;
  errorLater: number;
}

/** One client syncing to one responder over loopback UDP, the client's socket conditioned 50 ± 10 ms each way. */
async function loopbackTrial(seed: number): Promise<LoopbackResult> {
  const init = { port: 0, bindAddress: '127.0.0.1', broadcastAddress: '127.255.255.255', lanInterfaces: [] };
  const server = new UdpPacketApi();
  const inner = new UdpPacketApi();
  const client = new ConditionedPacketApi(inner, { conditions: () => ({ lagMs: 50, jitterMs: 10, lossPct: 0, dupPct: 0, reorderPct: 0 }), seed });
  let timer: ReturnType<typeof setInterval> | undefined;
  try {
    await server.init(init);
    await client.init(init);
    const responder = new TimeResponder(() => performance.now() + KNOWN_OFFSET);
    server.onPacket((p) => {
      const reply = isTimeDatagram(p.data) ? responder.answer(p.data) : null;
      if (reply !== null) server.send(p.from, reply);
    });
    const sync = new TimeSyncClient();
    const error = (): number => sync.offset - KNOWN_OFFSET;
    const start = performance.now();
    let ready: { at: number; error: number } | null = null;
    client.onPacket((p) => {
      if (!isTimeDatagram(p.data)) return;
      sync.receive(p.data, performance.now());
      if (ready === null && sync.ready) ready = { at: performance.now(), error: error() };
    });
    const to = client.resolve('127.0.0.1', server.localPort());
    const tick = (): void => {
      for (const request of sync.poll(performance.now())) client.send(to, request);
    };
    tick();
    timer = setInterval(tick, POLL_MS);
    while (ready === null) {
      if (performance.now() - start > 30_000) throw new Error(`trial ${seed}: not ready after 30 s (${JSON.stringify(sync.stats())})`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 2000));
    const r = ready as { at: number; error: number };
    return { readyMs: r.at - start, errorAtReady: r.error, errorLater: error() };
  } finally {
    if (timer !== undefined) clearInterval(timer);
    await client.kill();
    await server.kill();
  }
}

if (o.loopbackTrials > 0) {
  console.log(`\nreal loopback UDP through the link conditioner, 50 ± 10 ms each way, ${o.loopbackTrials} trials (${LOOPBACK_BATCH} at a time)`);
  const results: LoopbackResult[] = [];
  for (let first = 1; first <= o.loopbackTrials; first += LOOPBACK_BATCH) {
    const seeds = Array.from({ length: Math.min(LOOPBACK_BATCH, o.loopbackTrials - first + 1) }, (_, i) => first + i);
    results.push(...(await Promise.all(seeds.map(loopbackTrial))));
  }
  console.log(`    |error| at ready    ${three(results.map((r) => Math.abs(r.errorAtReady)))}`);
  console.log(`    |error| 2 s later   ${three(results.map((r) => Math.abs(r.errorLater)))}`);
  console.log(`    time to ready       ${three(results.map((r) => r.readyMs)).replace(/\.\d+/g, '')}`);
}
