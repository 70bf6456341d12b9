/**
 * `npm run bot -- [options]` / `node out/main/bot.js`: a headless Starlane
 * client running the same network core as the game, with a scripted pilot.
 * For tests, load and demos. With --json every event is one JSON line on
 * stdout; otherwise readable lines.
 */
import { randomBytes } from 'node:crypto';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConsoleCore } from '../../shared/console/registry';
import { validatePlayerName } from '../../shared/wire/strings';
import { DEFAULT_CLIENT_PORT } from '../../shared/net/packetApi';
import type { NetDelivery } from '../../shared/net/gameLink';
import { createSubsystems } from '../subsystems';
import { formatLanServers, nothingAnsweredLine, queryLanDetailed } from '../net/lanQuery';
import { MAX_FAKE_JITTER_MS, MAX_FAKE_LAG_MS, describeConditions, isConditioned } from '../../shared/net/linkConditions';
import { APP_VERSION } from '../version';
import { parseTarget } from '../protocol/serverPick';
import { ClientGame } from '../../shared/game';
import { GameDriver } from '../../shared/protocol/gameDriver';
import { createPilot, PILOTS, type Pilot } from '../../shared/game/pilot';
import { DEFAULT_SKILL, MAX_SKILL, MIN_SKILL } from '../../shared/game/pilots/skill';
import { MAX_KILL_LIMIT, MAX_TIME_LIMIT_S, ranking } from '../../shared/game/match';
import { RULES } from '../../shared/game/rules';
import { MAX_LEAD } from '../../shared/lockstep/config';
import { MATCH_OVER, MATCH_PLAYING } from '../../shared/game/types';
import { systemClock } from '../../shared/time/clock';
import { DEMO_PROTOCOLS, type DemoProtocol } from '../../shared/demo/demoFormat';
import { ClientRecording } from '../demo/clientRecording';

const int = (lo: number, hi: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < lo || n > hi) throw new InvalidArgumentError(`must be an integer from ${lo} to ${hi}`);
  return n;
};
const percent = (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) throw new InvalidArgumentError('must be a number from 0 to 100');
  return n;
};

/** Exit code of a bot that could not join its game or lost it. */
const EXIT_NO_GAME = 2;

const program = new Command('starlane-bot')
  .description('Headless Starlane client with a scripted pilot')
  .version(APP_VERSION)
  .option('-n, --name <name>', 'player name (default: bot-<4 random hex digits>, so several bots can share a server)')
  .addOption(new Option('--packetapi <api>', 'packet API').choices(['udp', 'udp6']).default('udp'))
  .addOption(new Option('--protocol <protocol>', 'network protocol').choices(['p2p', 'slotserver', 'gameserver', 'lockstep', 'netgame']).default('p2p'))
  .option('--server <host:port>', 'the server to join (with --protocol slotserver|gameserver|netgame; default: the first one of that kind answering on the LAN)', (v: string) => {
    if (!parseTarget(v)) throw new InvalidArgumentError('must be host[:port]');
    return v;
  })
  .option('--discover', 'only list the slot- and gameservers answering LAN discovery over --packetapi (honours --broadcast, --lan-interfaces), then exit', false)
  .option('-p, --port <port>', 'UDP client port (next free one if taken; 0 = any free port); LAN discovery targets it too (from 6526 with 0)', int(0, 65535), DEFAULT_CLIENT_PORT)
  .option('--bind <address>', 'local address to bind (default: all interfaces)')
  .option('--broadcast <address>', 'IPv4 broadcast address for LAN discovery', '255.255.255.255')
  .option('--lan-interfaces <names>', 'comma-separated interfaces for IPv6 discovery ("none" for none)')
  .option('--max-players <n>', 'slots of a game this bot starts', int(2, 8), 4)
  .option('--sendfreq <hz>', 'game packets per second', int(5, 60), 20)
  .option('--input-lead <frames>', `lockstep: frames the pilot's input is sent ahead, 0 = from the round trip`, int(0, MAX_LEAD), 0)
  .addOption(new Option('--pilot <pilot>', 'scripted flying: circle (a climbing turn, bursts of fire), idle (no input), hunt (a computer opponent: hunts the nearest enemy, collects extras, refuels at energy fields)').choices([...PILOTS]).default('circle'))
  .option('--skill <1-5>', `skill of --pilot hunt: 1 reacts slowly, aims poorly and fires lasers only; 3 leads its shots and fires missiles too; 5 reacts at once, aims tight and uses every weapon (mines, EMP, afterburner)`, int(MIN_SKILL, MAX_SKILL), DEFAULT_SKILL)
  .option('--say <text>', 'send this chat line once connected')
  .option('--record <file>', 'record a demo of this bot\'s game into <file> (a new .sldemo file; docs/DEMO.md); with --json every 40 ticks {"event":"demo-digest","tick":…,"hash":"…","frame":false} (frame true: a shared world\'s frame hash)')
  .option('--seconds <s>', 'stop after this many seconds (0 = run until SIGINT/SIGTERM)', int(0, 86400), 0)
  .option('--seed <n>', 'simulation seed', int(0, 0xffffffff), 1)
  .option('--kill-limit <n>', 'kills that win a match, 0 for none (used when this bot is the match authority: the lowest joined slot)', int(0, MAX_KILL_LIMIT), RULES.match.killLimit)
  .option('--time-limit <seconds>', 'length of a match in seconds, 0 for none (when this bot is the match authority)', int(0, MAX_TIME_LIMIT_S), RULES.match.timeLimitS)
  .option('--json', 'print events as JSON lines; at the end of each match one line {"event":"match-end","scores":[{"name","kills","deaths"},…]} (best first); in a lockstep game every 40 frames {"event":"frame-hash","frame":…,"hash":"…","epoch":…}', false)
  .option('--fake-lag <ms>', 'testing: extra delay on every datagram sent and received (round trips grow by twice this)', int(0, MAX_FAKE_LAG_MS), 0)
  .option('--fake-jitter <ms>', 'testing: random ± variation of that delay, per datagram', int(0, MAX_FAKE_JITTER_MS), 0)
  .option('--fake-loss <pct>', 'testing: % of datagrams dropped, each direction', percent, 0)
  .option('--fake-dup <pct>', 'testing: % of datagrams delivered twice, each direction', percent, 0)
  .option('--fake-reorder <pct>', 'testing: % of datagrams held back so later ones overtake them', percent, 0)
  .option('--fake-seed <n>', 'seed of the fake link\'s randomness (same seed, same losses)', int(0, 0xffffffff), 1)
  .addHelpText('after', `\nExit codes: 0 stopped (SIGINT, SIGTERM, --seconds); ${EXIT_NO_GAME} could not join or lost the game (name taken, server full, version incompatible, refused, unreachable, nothing found on the LAN, removed, connection lost: the reason is on stderr and, with --json, in a {"t":"failed"} line); 1 bad options or a start-up error.`)
  // A mistake gets one line and a pointer, not the whole help.
  .showHelpAfterError('(add --help for usage)');

interface Opts {
  name?: string;
  packetapi: string;
  protocol: string;
  server?: string;
  port: number;
  bind?: string;
  broadcast: string;
  lanInterfaces?: string;
  maxPlayers: number;
  sendfreq: number;
  inputLead: number;
  pilot: Pilot;
  skill: number;
  killLimit: number;
  timeLimit: number;
  say?: string;
  record?: string;
  seconds: number;
  seed: number;
  json: boolean;
  discover: boolean;
  fakeLag: number;
  fakeJitter: number;
  fakeLoss: number;
  fakeDup: number;
  fakeReorder: number;
  fakeSeed: number;
}

async function main(): Promise<void> {
  program.parse();
  const o = program.opts<Opts>();
  // Without --name every bot gets its own, so two of them can join one server (servers refuse a taken name).
  const checked = validatePlayerName(o.name ?? `bot-${randomBytes(2).toString('hex')}`);
  const name = checked.ok ? checked : program.error(`starlane-bot: --name: ${checked.error}`);
  const emit = (record: Record<string, unknown>, text: string) =>
    process.stdout.write(o.json ? `${JSON.stringify(record)}\n` : `${text}\n`);
  if (o.discover) {
    // One LAN query with the bot's own broadcast settings: a line per server, then a summary.
    const kind = o.packetapi === 'udp6' ? 'udp6' : 'udp';
    const lanInterfaces = o.lanInterfaces === undefined ? undefined : o.lanInterfaces === 'none' ? [] : o.lanInterfaces.split(',');
    const found = await queryLanDetailed(kind, { broadcastAddress: o.broadcast, lanInterfaces });
    const table = formatLanServers(found.servers);
    if (!o.json && found.servers.length > 0) process.stdout.write(`${table[0]}\n`);
    found.servers.forEach((s, i) => emit({ t: 'lan-server', ...s }, table[i + 1] ?? ''));
    const summary = found.servers.length > 0 ? `${found.servers.length} server(s) answered` : nothingAnsweredLine(kind, found);
    emit({ t: 'lan-done', servers: found.servers.length, ignored: found.ignored, requests: found.requests, sendFailures: found.sendFailures }, `${summary}; ignored: ${JSON.stringify(found.ignored)}`);
    process.exit(0);
  }

  const states = new Map<number, number>();
  /** Player names by slot, from the latest slot table (for the match-end ranking). */
  const names = new Map<number, string>();
  let lastPhase = MATCH_PLAYING;
  let said = false;
  let stopping = false;
  let report: ReturnType<typeof setInterval> | undefined;
  const consoleCore = new ConsoleCore();
  const out = { print: (text: string) => emit({ t: 'print', text }, text) };
  const onDeliver = (d: NetDelivery) => {
    if (d.kind === 'state') states.set(d.slot, (states.get(d.slot) ?? 0) + 1);
    else if (d.kind === 'players') {
      names.clear();
      for (const p of d.players) names.set(p.slot, p.name);
      emit({ t: 'players', localSlot: d.localSlot, status: d.status, players: d.players }, `players: ${d.players.map((p) => `${p.slot}:${p.name}${p.joined ? '' : '(connected)'}`).join(' ')} — ${d.status}`);
      if (o.say && !said && d.localSlot !== null) {
        said = true;
        void consoleCore.execute(`say ${JSON.stringify(o.say)}`, out);
      }
    } else if (d.kind === 'chat') {
      recordingText(`${d.from}: ${d.text}`);
      emit({ t: 'chat', slot: d.slot, from: d.from, text: d.text }, `${d.from}: ${d.text}`);
    } else if (d.kind === 'event') emit({ t: 'event', slot: d.slot, type: d.event.type }, `event from slot ${d.slot}: ${d.event.type}`);
  };
  let recordingText: (line: string) => void = () => undefined;
  // The game every client runs; the pilot is all a bot adds.
  const pilot = createPilot(o.pilot, { skill: o.skill, seed: o.seed });
  const game = new GameDriver({
    clock: systemClock,
    game: new ClientGame({ seed: o.seed, match: { killLimit: o.killLimit, timeLimitS: o.timeLimit } }),
    playerName: () => name.name,
    sendFrequency: () => o.sendfreq,
    autoJoin: () => true,
    input: pilot,
    onDeliver,
    onTick: (g) => {
      // The end of a match, as this game sees it (decided here or announced by the match authority).
      const phase = g.curr.match.phase;
      if (phase === MATCH_OVER && lastPhase !== MATCH_OVER) {
        // Every player of the slot table, with no kills and no deaths if the scoreboard has no line for them.
        const lines = [...g.curr.scores, ...[...names.keys()].filter((slot) => !g.curr.scores.some((s) => s.slot === slot)).map((slot) => ({ slot, kills: 0, deaths: 0 }))];
        const scores = ranking(lines).map((s) => ({ name: names.get(s.slot) ?? `slot ${s.slot}`, kills: s.kills, deaths: s.deaths }));
        emit({ event: 'match-end', scores }, `match over: ${scores.map((s, i) => `${i + 1}. ${s.name} ${s.kills} kills ${s.deaths} deaths`).join('; ')}`);
      }
      lastPhase = phase;
    },
  });
  const link = { lagMs: o.fakeLag, jitterMs: o.fakeJitter, lossPct: o.fakeLoss, dupPct: o.fakeDup, reorderPct: o.fakeReorder };
  if (isConditioned(link)) out.print(`link conditioned (testing): ${describeConditions(link)} on every datagram sent and received`);
  const lan = o.lanInterfaces === undefined ? undefined : o.lanInterfaces === 'none' ? [] : o.lanInterfaces.split(',');
  const subsystems = createSubsystems({
    clientPort: o.port,
    bindAddress: o.bind,
    broadcastAddress: o.broadcast,
    lanInterfaces: lan,
    game,
    p2pConfig: () => ({ maxPlayers: o.maxPlayers }),
    lockstep: () => ({ lead: o.inputLead, matchLimits: { killLimit: o.killLimit, timeLimitS: o.timeLimit } }),
    frameHash: ({ frame, hash, epoch }) => emit({ event: 'frame-hash', frame, hash, epoch }, `frame ${frame}: world hash ${hash} (epoch ${epoch})`),
    print: (line) => out.print(line),
    // A bot's output is for tests and logs: the connection's internals too.
    printDetail: (line) => out.print(line),
    log: (line) => process.stderr.write(`starlane-bot: ${line}\n`),
    addCommand: (def) => consoleCore.addCommand(def),
    linkConditions: () => link,
    linkSeed: o.fakeSeed,
    // A bot that cannot play has nothing to do: it says why and exits, rather than fly alone for ever.
    connectionEnded: (outcome, reason) => void stop(outcome === 'failed' ? 'cannot join' : 'game lost', reason),
  });
  // A bot has nobody to hear it: its sound kind is `none`.
  for (const [kind, impl] of [[subsystems.packetApi, o.packetapi], [subsystems.protocol, o.protocol], [subsystems.sound, 'none']] as const) {
    const r = await kind.bind(impl);
    if (!r.ok) {
      process.stderr.write(`starlane-bot: cannot start ${kind.kindName} ${impl}: ${r.error}\n`);
      process.exit(1);
    }
  }
  const packetApi = subsystems.packetApi.table;
  emit({ t: 'ready', name: name.name, port: packetApi.localPort(), node: packetApi.nodeToString(packetApi.localNode()) }, `bot ${name.name} on ${packetApi.nodeToString(packetApi.localNode())}`);
  game.start();
  const recording = o.record === undefined ? null : await startRecording(o.record);
  // Without --server a server protocol's connect finds one by LAN discovery.
  const connecting = subsystems.protocol.table.connect?.(o.protocol === 'p2p' || o.protocol === 'lockstep' ? undefined : o.server || undefined) ?? null;
  if (connecting !== null) out.print(connecting);

  // eslint-disable-next-line prefer-const -- stop() (hoisted) may run before the interval starts: clearInterval(undefined) is fine, a const would be in its dead zone
  report = setInterval(() => {
    emit({ t: 'stats', received: Object.fromEntries(states), sent: packetApi.stats().packetsOut, ...lockstepStats() }, `received states: ${[...states].map(([s, n]) => `${s}:${n}`).join(' ') || 'none'}`);
  }, 1000);
  /** In a lockstep game: the engine's figures and the largest round trip to a peer (what the automatic input lead follows), for bench/lockstep.ts. */
  function lockstepStats(): { lockstep?: Record<string, unknown> } {
    const protocol = subsystems.protocol.table;
    const s = protocol.syncStats?.() ?? null;
    if (!s || s.frame === null) return {};
    const pings = protocol.playerPings?.() ?? [];
    const rttMs = pings.length === 0 ? null : Math.max(...pings.map((p) => p.ms));
    return { lockstep: { frame: s.frame, epoch: s.epoch, lead: s.lead, framesStepped: s.framesStepped, framesWaited: s.framesWaited, resends: s.resends, desyncs: s.desyncs, corrected: s.corrected, rttMs } };
  }
  /** Starts the --record demo on the bot's game, or exits saying why it cannot. */
  async function startRecording(path: string): Promise<ClientRecording> {
    const protocol = (DEMO_PROTOCOLS as readonly string[]).includes(o.protocol) ? (o.protocol as DemoProtocol) : 'offline';
    const started = await ClientRecording.start({
      game: game.game,
      path,
      protocol,
      server: o.server ?? null,
      recorder: { slot: null, name: name.name },
      players: [],
      seed: o.seed,
      hooks: {
        digest: (d) => emit({ event: 'demo-digest', tick: d.tick, hash: d.hash, frame: d.frame }, `demo digest at ${d.frame ? 'frame' : 'tick'} ${d.tick}: ${d.hash}`),
        failed: (reason) => out.print(`recording stopped: ${reason}`),
      },
    });
    if (!started.ok) {
      process.stderr.write(`starlane-bot: --record: ${started.reason}\n`);
      process.exit(1);
    }
    out.print(`recording a demo into ${path}`);
    recordingText = (line) => started.recording.text(line);
    return started.recording;
  }
  /** Stops cleanly; with `failure` (the reason) it says so on stderr (and as a JSON line) and exits EXIT_NO_GAME. */
  async function stop(why: string, failure?: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    clearInterval(report);
    game.stop();
    if (recording) {
      const r = await recording.stop(why);
      emit({ t: 'recorded', path: recording.path, ...r }, `recorded ${recording.path}: ${r.seconds.toFixed(1)} s, ${r.chunks} chunks, ${r.bytes} bytes`);
    }
    if (failure !== undefined) {
      process.stderr.write(`starlane-bot: ${why}: ${failure}\n`);
      if (o.json) emit({ t: 'failed', why, reason: failure }, '');
    }
    await consoleCore.execute('disconnect', { print: () => undefined });
    await subsystems.killAll();
    emit({ t: 'stopped', why }, `stopped (${why})`);
    process.exit(failure === undefined ? 0 : EXIT_NO_GAME);
  }
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  if (o.seconds > 0) setTimeout(() => void stop('time up'), o.seconds * 1000);
}

main().catch((err: unknown) => {
  process.stderr.write(`starlane-bot: ${(err as Error).message}\n`);
  process.exit(1);
});
