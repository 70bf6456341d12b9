/**
 * Spectators on a full gameserver (`npm run bench:spectators -- [options]`):
 * a gameserver process whose every seat is taken by honest players at 20 Hz,
 * measured over a window of their states, then again with a crowd of
 * spectators seated (test/support/spectatorScenario.ts). Prints the
 * players' update rates without and with the spectators (target: with ≥ 95 %
 * of without), what each spectator saw of each player (target: every
 * player, at ≥ 90 % of the rate the players send), the server's upstream
 * to each spectator, its CPU, its drop counters (target: none for the
 * spectators' sake), and what the spectator past the seats was told.
 * Exits with status 1 when a target is missed.
 */
import { Command, InvalidArgumentError } from 'commander';
import { stopServers } from '../test/support/serverProcess';
import { describeSpectators, runSpectatorScenario } from '../test/support/spectatorScenario';

const count = (lo: number, hi: number) => (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < lo || n > hi) throw new InvalidArgumentError(`must be an integer from ${lo} to ${hi}`);
  return n;
};

const program = new Command('bench:spectators')
  .description('spectators on a full gameserver: the players\' update rates without and with them, what the spectators see, the server\'s upstream to each')
  .option('--players <n>', 'players (every seat of the server)', count(2, 64), 16)
  .option('--spectators <n>', 'spectators seated (the server seats that many)', count(1, 256), 32)
  .option('--window <states>', 'states of one player to another each window lasts (20 a second)', count(20, 2000), 100)
  .parse();
const o = program.opts<{ players: number; spectators: number; window: number }>();

try {
  const r = await runSpectatorScenario({ players: o.players, spectators: o.spectators, windowStates: o.window });
  for (const line of describeSpectators(r)) console.log(line);
  const kept = r.playerRate.with.mean / r.playerRate.without.mean;
  const seen = r.spectatorRate.min / r.sentRate.with.mean;
  const clean = Object.keys(r.drops).length === 0 && Object.values(r.eventDrops).every((v) => v === 0) && r.statesShed === 0 && Object.values(r.spectatorDrops).every((v) => v === 0);
  const targets = [
    [`players' rate with spectators ${(100 * kept).toFixed(0)} % of without (target ≥ 95 %)`, kept >= 0.95],
    [`the least a spectator saw of a player: ${(100 * seen).toFixed(0)} % of the rate players send (target ≥ 90 %)`, seen >= 0.9],
    [`nothing dropped for the spectators' sake (target: none)`, clean],
    [`spectator ${r.spectators + 1} refused with "spectators full"`, r.oneMore === 'spectators full'],
  ] as const;
  for (const [line, met] of targets) console.log(`${met ? 'met   ' : 'MISSED'} ${line}`);
  process.exitCode = targets.every(([, met]) => met) ? 0 : 1;
} finally {
  stopServers();
}
