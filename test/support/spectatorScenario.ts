/**
 * Spectators on a full gameserver, for the spectator test and
 * `npm run bench:spectators`: a gameserver process with every seat taken by
 * honest players (test/support/honestPlayers.ts, all within the filter
 * radius at 20 Hz), measured over a window of their states, then the same
 * with a crowd of spectators seated (test/support/spectatorCrowd.ts): the
 * players' update rates without and with them, what each spectator saw of
 * each player, the bytes the server sent each spectator, the server's CPU,
 * its drop counters, and the answer to one spectator more than it seats.
 */
import { HonestPlayers, rateOf, type Window } from './honestPlayers';
import { startServer, type ServerProcess } from './serverProcess';
import { SpectatorCrowd, type CrowdWindow } from './spectatorCrowd';
import { GameClient } from './gameClient';
import { procCpuSeconds } from '../../bench/procCpu';

export interface SpectatorScenarioOptions {
  /** Players (the server's every seat; default 16). */
  players?: number;
  /** Spectators (default 32, the server's default seats). */
  spectators?: number;
  /** States of one player to another each window lasts (default 60: three seconds at 20 Hz). */
  windowStates?: number;
}

/** Mean and lowest of some figures. */
export interface Spread {
  mean: number;
  min: number;
  max: number;
}

export interface SpectatorScenarioResult {
  players: number;
  spectators: number;
  /** States a second one player sent, and one player got from another (every pair), without and with the spectators. */
  sentRate: { without: Spread; with: Spread };
  playerRate: { without: Spread; with: Spread };
  /** States a second each spectator got of each player (every spectator-player pair). */
  spectatorRate: Spread;
  /** Spectator-player pairs with no state at all in the window. */
  unseen: number;
  /** Bytes a second the server sent each spectator. */
  spectatorBytesPerSecond: Spread;
  /** The server's CPU share (seconds a second) in each window; NaN without /proc. */
  serverCpu: { without: number; with: number };
  /** The server's counters after the windows (status.json): datagrams dropped, events dropped, states shed, what spectators lost. */
  drops: Record<string, number>;
  eventDrops: Record<string, number>;
  statesShed: number;
  spectatorDrops: Record<string, number>;
  /** What one spectator more than the seats was told. */
  oneMore: string;
}

interface Status {
  drops: Record<string, number>;
  eventDrops: Record<string, number>;
  load: { statesShed: number };
  spectators: { max: number; drops: Record<string, number>; list: unknown[] };
}

const spread = (xs: readonly number[]): Spread => ({ mean: xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length), min: Math.min(...xs), max: Math.max(...xs) });

/** Every pair's rate in a players' window. */
function pairRates(w: Window, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) out.push(rateOf(w, i, j));
  return out;
}

/** Starts the gameserver (a tracked process: the caller's teardown, or stopServers, ends it) and runs the scenario. */
export async function runSpectatorScenario(o: SpectatorScenarioOptions = {}): Promise<SpectatorScenarioResult & { server: ServerProcess }> {
  const n = o.players ?? 16;
  const watchers = o.spectators ?? 32;
  const windowStates = o.windowStates ?? 60;
  const server = await startServer(['gameserver', '--name', 'spectated', '--port', '0', '--udp-port', '0', '--http-port', '0', '--max-players', String(n), '--max-per-address', String(n), '--max-spectators', String(watchers)]);
  const status = async (): Promise<Status> => (await (await fetch(`http://127.0.0.1:${server.http}/status.json`, { signal: AbortSignal.timeout(5000) })).json()) as Status;
  const players = await HonestPlayers.join(server.tcp, n);
  let crowd: SpectatorCrowd | null = null;
  try {
    const measure = async <T>(run: () => Promise<T>): Promise<{ value: T; cpu: number }> => {
      const cpu0 = procCpuSeconds(server.child.pid);
      const t0 = performance.now();
      const value = await run();
      return { value, cpu: (procCpuSeconds(server.child.pid) - cpu0) / ((performance.now() - t0) / 1000) };
    };
    const without = await measure(() => players.window(() => players.more(0, 1, windowStates)));
    // Spectators from other loopback addresses, eight to each, as hosts of their own.
    crowd = await SpectatorCrowd.join(server.tcp, watchers, Array.from({ length: Math.ceil(watchers / 8) }, (_, i) => `127.0.0.${2 + i}`));
    const seated = crowd;
    await seated.clients[0]?.until(() => seated.statesOf(watchers - 1, players.clients[n - 1]?.slot ?? 0) > 0, 20_000, 'the last spectator to see the last player');
    let crowdWindow: CrowdWindow | null = null;
    const withThem = await measure(() =>
      players.window(async () => {
        crowdWindow = await seated.window(() => players.more(0, 1, windowStates));
      }),
    );
    const cw = crowdWindow as CrowdWindow | null;
    if (!cw) throw new Error('no spectators window');
    const slots = players.clients.map((c) => c.slot);
    const spectatorRates = cw.got.flatMap((m) => slots.map((slot) => (m.get(slot) ?? 0) / cw.seconds));
    const st = await status();
    const oneMore = await GameClient.join({ tcpPort: server.tcp, name: 'eye-one-more', spectate: true, localAddress: '127.0.0.60' }).then(
      (c) => (c.close(), 'seated'),
      (e: Error) => e.message.replace(/^join refused: /, ''),
    );
    return {
      server,
      players: n,
      spectators: watchers,
      sentRate: { without: spread(without.value.sent.map((k) => k / without.value.seconds)), with: spread(withThem.value.sent.map((k) => k / withThem.value.seconds)) },
      playerRate: { without: spread(pairRates(without.value, n)), with: spread(pairRates(withThem.value, n)) },
      spectatorRate: spread(spectatorRates),
      unseen: spectatorRates.filter((r) => r === 0).length,
      spectatorBytesPerSecond: spread(cw.bytes.map((b) => b / cw.seconds)),
      serverCpu: { without: without.cpu, with: withThem.cpu },
      drops: st.drops,
      eventDrops: st.eventDrops,
      statesShed: st.load.statesShed,
      spectatorDrops: st.spectators.drops,
      oneMore,
    };
  } finally {
    crowd?.close();
    players.close();
  }
}

/** The scenario's figures, one line each. */
export function describeSpectators(r: SpectatorScenarioResult): string[] {
  const f = (x: number, d = 1) => x.toFixed(d);
  const s = (x: Spread, d = 1) => `mean ${f(x.mean, d)}, min ${f(x.min, d)}, max ${f(x.max, d)}`;
  return [
    `${r.players} players (every seat) at 20 Hz, ${r.spectators} spectators`,
    `states a player got from another: without spectators ${s(r.playerRate.without)} /s; with them ${s(r.playerRate.with)} /s (${f((100 * r.playerRate.with.mean) / r.playerRate.without.mean, 0)} % of the rate without)`,
    `states a player sent: without ${s(r.sentRate.without)} /s; with ${s(r.sentRate.with)} /s`,
    `states a spectator got of each player: ${s(r.spectatorRate)} /s; pairs with none: ${r.unseen}`,
    `the server's upstream to each spectator: ${s(r.spectatorBytesPerSecond, 0)} B/s`,
    `server CPU: ${f(100 * r.serverCpu.without, 0)} % of a core without spectators, ${f(100 * r.serverCpu.with, 0)} % with them`,
    `server drops: datagrams ${JSON.stringify(r.drops)}, events ${JSON.stringify(r.eventDrops)}, states shed ${r.statesShed}, spectators' own ${JSON.stringify(r.spectatorDrops)}`,
    `spectator ${r.spectators + 1}: ${r.oneMore}`,
  ];
}
