/**
 * Remote ships stay smooth on a bad link: a headless bot flies circles and
 * sends 10 states a second peer to peer; a full host receives them over a
 * link conditioned with net_fakelag 150 and net_fakeloss 5. Its deliveries
 * (with the arrival time and the state's age by common game time) are
 * replayed into the renderer's RemoteShipTrack at 60 frames a second, and
 * each frame's correction — how far the ship moved beyond what its displayed
 * velocity explains — is measured. The largest must stay below the ship's
 * own motion per frame, and the drawn ship must be nearer its true position
 * than when states are placed by their arrival time.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { botEntry } from '../support/paths';
import { spawnTracked } from '../support/testRun';
import { RemoteShipTrack } from '../../src/shared/net/smoothing';
import type { NetDelivery } from '../../src/shared/net/gameLink';
import { BotWatch } from '../support/botProcess';
import { startTestHost, until, type TestHost } from '../support/testHost';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

const repoRoot = join(__dirname, '..', '..');
const hosts: TestHost[] = [];
const bots: BotWatch[] = [];
afterEach(async () => {
  for (const b of bots.splice(0)) b.child.kill('SIGTERM');
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
});

type StateDelivery = Extract<NetDelivery, { kind: 'state' }>;

/**
 * Replays `arrivals` into a track at 60 Hz; returns per-frame corrections and
 * per-frame motion (units), and how far the drawn ship was from where each
 * state says it truly was at that state's own time (its arrival minus its age).
 */
function replay(arrivals: { at: number; d: StateDelivery }[], useAge: boolean): { corrections: number[]; motion: number[]; errors: number[] } {
  const track = new RemoteShipTrack({ convergeMs: 200 });
  const frame = 1000 / 60;
  const corrections: number[] = [];
  const motion: number[] = [];
  let next = 0;
  let prev: { x: number; y: number; z: number; vx: number; vy: number; vz: number } | null = null;
  const start = arrivals[0]?.at ?? 0;
  const end = arrivals[arrivals.length - 1]?.at ?? 0;
  const drawn: { t: number; x: number; y: number; z: number }[] = [];
  for (let t = start; t <= end; t += frame) {
    while (next < arrivals.length && (arrivals[next]?.at ?? Infinity) <= t) {
      const { d } = arrivals[next] as { at: number; d: StateDelivery };
      track.onState(d.state, t, useAge ? t - (d.ageMs ?? 0) : t);
      next += 1;
    }
    const s = track.sample(t);
    drawn.push({ t, x: s.pos.x, y: s.pos.y, z: s.pos.z });
    if (prev) {
      const ex = s.pos.x - prev.x - prev.vx * (frame / 1000);
      const ey = s.pos.y - prev.y - prev.vy * (frame / 1000);
      const ez = s.pos.z - prev.z - prev.vz * (frame / 1000);
      corrections.push(Math.hypot(ex, ey, ez));
      motion.push(Math.hypot(s.pos.x - prev.x, s.pos.y - prev.y, s.pos.z - prev.z));
    }
    prev = { x: s.pos.x, y: s.pos.y, z: s.pos.z, vx: s.vel.x, vy: s.vel.y, vz: s.vel.z };
  }
  const errors: number[] = [];
  for (const { at, d } of arrivals) {
    const truthAt = at - (d.ageMs ?? 0);
    if (d.ageMs === undefined || truthAt < start + 1000) continue;
    const f = drawn[Math.round((truthAt - start) / frame)];
    if (f) errors.push(Math.hypot(f.x - d.state.pos.x, f.y - d.state.pos.y, f.z - d.state.pos.z));
  }
  return { corrections, motion, errors };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

describe('remote ship smoothness on a bad link', () => {
  it('with net_fakelag 150, net_fakeloss 5 and 10 Hz states, no frame jumps a remote ship, and ships are drawn where they are, not where they were', async () => {
    if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
    const port = await freeUdpPorts(P2P_PORT_SPAN);
    const child = spawnTracked(process.execPath, [botEntry, '--json', '--name', 'circler', '--port', String(port), '--broadcast', '127.255.255.255', '--lan-interfaces', 'none', '--sendfreq', '10'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const bot = new BotWatch('circler', child);
    bots.push(bot);
    await bot.until('the bot hosts a p2p game', () => bot.players()?.localSlot === 0, 15_000);

    const viewer = await startTestHost('viewer', { protocol: 'p2p', clientPort: port });
    hosts.push(viewer);
    const arrivals: { at: number; d: StateDelivery }[] = [];
    viewer.host.game?.watch((d) => {
      if (d.kind === 'state' && d.slot === 0) arrivals.push({ at: performance.now(), d });
    });
    await viewer.run('net_fakelag 150');
    await viewer.run('net_fakeloss 5');
    await viewer.run('connect');
    await until('the viewer joined the bot', () => /connected to the peer-to-peer game as slot 1/.test(viewer.text()), 20_000).catch((e) => { console.log(viewer.text()); throw e; });
    await until('12 s of states', () => arrivals.length >= 100 && (arrivals[arrivals.length - 1]?.at ?? 0) - (arrivals[0]?.at ?? 0) >= 12_000, 40_000);

    // States are aged once the viewer's clock is synchronised with the host's (a few exchanges over the lossy, lagged link).
    const firstAged = arrivals.findIndex((a) => a.d.ageMs !== undefined);
    const synced = firstAged < 0 ? [] : arrivals.slice(firstAged);
    const aged = synced.filter((a) => a.d.ageMs !== undefined).map((a) => a.d.ageMs as number);
    const syncedAfterMs = firstAged < 0 ? NaN : arrivals[firstAged]!.at - arrivals[0]!.at;
    const withAge = replay(arrivals, true);
    const arrivalOnly = replay(arrivals, false);
    const speed = pct(withAge.motion, 0.5);
    const maxCorrection = Math.max(...withAge.corrections);
    const report = (r: { corrections: number[]; errors: number[] }) =>
      `correction max ${Math.max(...r.corrections).toFixed(3)} / p99 ${pct(r.corrections, 0.99).toFixed(3)} / p50 ${pct(r.corrections, 0.5).toFixed(4)}, distance from the true position p50 ${pct(r.errors, 0.5).toFixed(2)} / p95 ${pct(r.errors, 0.95).toFixed(2)}`;
    console.log(
      `smoothness: ${arrivals.length} states at ~10 Hz over ${((arrivals[arrivals.length - 1]!.at - arrivals[0]!.at) / 1000).toFixed(1)} s with net_fakelag 150, net_fakeloss 5; ` +
        `clock synchronised after ${syncedAfterMs.toFixed(0)} ms (${firstAged} states unaged), then ${aged.length} of ${synced.length} states aged; ` +
        `state age by common time p50 ${pct(aged, 0.5)} ms; ship motion ${speed.toFixed(3)} units/frame at 60 fps; ` +
        `placed by game time: ${report(withAge)}; placed by arrival time: ${report(arrivalOnly)} (units)`,
    );
    // The clock is synchronised (ages are measured and about the fake lag), and states are placed by them.
    expect(firstAged).toBeGreaterThanOrEqual(0);
    expect(syncedAfterMs).toBeLessThan(6_000); // half the run: a sync that never settles trips this, a slow machine does not
    expect(aged.length).toBeGreaterThan(synced.length * 0.9);
    expect(pct(aged, 0.5)).toBeGreaterThan(120);
    expect(pct(aged, 0.5)).toBeLessThan(1000); // beyond a second an age is treated as clock trouble
    // No frame jumps. Snapping to a state 150 ms old would move the ship by some nine frames of its own motion;
    // the guard trips at three (smoothing keeps the largest correction below one on a quiet machine: printed above).
    expect(maxCorrection).toBeLessThan(3 * speed);
    // Placing by game time puts the ship where it is, not ~150 ms behind: a fraction of the error of placing by arrival.
    expect(pct(withAge.errors, 0.5)).toBeLessThan(0.5 * pct(arrivalOnly.errors, 0.5));
  });
});
