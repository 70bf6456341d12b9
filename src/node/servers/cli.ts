/**
 * `npm run server -- <masterserver|slotserver|gameserver|netgame> [options]` /
 * `node out/main/server.js`: runs one Starlane server. Prints one line for a
 * person on stdout once it listens; structured logs (pino JSON) go to stderr.
 * SIGINT/SIGTERM shut it down gracefully (leave the masterserver list, say
 * goodbye to clients, close every socket) and exit 0. SIGHUP makes a slot- or
 * gameserver read its ban file again (it also does so by itself when the file
 * changes) and remove the seated players it now bans.
 */
import { MAX_SLOTS } from '../../shared/wire/types';
import { Command, Option } from 'commander';
import { createLogger } from '../log';
import { APP_VERSION } from '../version';
import { DEFAULT_MAX_SERVERS_PER_ADDRESS, startMasterserver } from './master/masterserver';
import type { MasterRegistration } from './master/masterClient';
import { startSlotserver, renderSlotserverStatus } from './slot/slotserver';
import { loadGalaxy } from './game/galaxyFile';
import { loadUniverseKey, writeUniverseKey } from './common/universeKey';
import { startGameserver } from './game/gameserver';
import { NETGAME_MAX_PLAYERS, startNetgameServer } from './netgame/netgameServer';
import { renderNetgameStatus } from './netgame/netgameStatus';
import { MAX_CONTROL_LEAD } from '../../shared/netgame/config';
import { DEFAULT_MAX_BEHIND_FRAMES, MAX_MAX_BEHIND_FRAMES, MIN_MAX_BEHIND_FRAMES } from '../../shared/netgame/syncGate';
import { renderGameserverStatus } from './game/gameserverStatus';
import { DEFAULT_GAMESERVER_PLAYERS, DEFAULT_GATHER_MS, MAX_GATHER_MS } from './game/gameserverOptions';
import { MAX_SPECTATOR_DELAY_S, MAX_SPECTATOR_SEATS } from './common/spectatorSeats';
import { DEFAULT_MAX_SPECTATORS } from './join/joinOptions';
import { GAMESERVER_PORT, GAMESERVER_UDP_PORT, NETGAME_PORT, NETGAME_UDP_PORT, SLOTSERVER_PORT, SLOTSERVER_UDP_PORT } from '../../shared/servers/joinProtocol';
import { MAX_WIRE_SLOTS } from '../../shared/wire/types';
import { withProcessStatus } from './common/statusHttp';
import { DEFAULT_MASTER_PORT, DEFAULT_MAX_SERVERS } from '../../shared/servers/masterProtocol';
import { MAX_KILL_LIMIT, MAX_TIME_LIMIT_S } from '../../shared/game/match';
import { RULES } from '../../shared/game/rules';
import { announce, HELP_POINTER, int, limitsOf, namingBusyPorts, number, seconds, serverName, stopOnSignals, withCommonOptions, type CommonOpts } from './cliOptions';
import { checkMasterOptions, seatOptions, serveAndRegister, SERVER_NAME_HELP, withPlayerOptions, type SlotOpts } from './cliPlayerServers';
import { startAgones, withAgonesOptions, type AgonesOpts } from './cliAgones';
import type { Gameserver } from './game/gameserver';

const program = new Command('starlane-server')
  .description('Starlane servers: a masterserver that lists game servers, a slotserver that hands out game slots, a gameserver that relays game packets, and a netgame server (input sync)')
  .version(APP_VERSION)
  // A mistake gets one line and a pointer, not the whole help; the subcommands inherit this.
  .showHelpAfterError(HELP_POINTER);

withCommonOptions(program.command('masterserver').description('list running slot- and gameservers for players (TCP masterserver protocol, HTML/JSON list)'), {
  name: 'starlane-master',
  port: DEFAULT_MASTER_PORT,
  nameHelp: 'name in the page title (1-31 printable ASCII characters, no spaces)',
  parseName: serverName,
})
  .option('--max-servers <n>', 'most servers listed at once', int(1, DEFAULT_MAX_SERVERS), DEFAULT_MAX_SERVERS)
  .option('--max-servers-per-address <n>', 'most servers one host (an IPv4 address or an IPv6 /64) may list at once', int(1, DEFAULT_MAX_SERVERS), DEFAULT_MAX_SERVERS_PER_ADDRESS)
  .addOption(new Option('--expire-seconds <s>', 'drop a server not heard from for this long').argParser(seconds(0.1, 86_400)).default(90).hideHelp())
  .option('--universe-key <file>', "route stargate jumps between the gameservers that prove this universe key (the same file theirs name; create one with the keygen command)")
  .action(
    namingBusyPorts('masterserver', async (o: CommonOpts & { maxServers: number; maxServersPerAddress: number; expireSeconds: number; universeKey?: string }) => {
      const log = createLogger('starlane-masterserver', o.logLevel);
      const universeKey = o.universeKey === undefined ? undefined : await loadUniverseKey(o.universeKey);
      const server = await startMasterserver({
        ...(universeKey ? { universeKey } : {}),
        name: o.name,
        host: o.host,
        port: o.port,
        httpPort: o.httpPort,
        log,
        maxServers: o.maxServers,
        maxServersPerAddress: o.maxServersPerAddress,
        expireMs: Math.round(o.expireSeconds * 1000),
        limits: limitsOf(o),
      });
      stopOnSignals(log, 'masterserver', (reason) => server.close(reason));
      // SIGHUP re-reads ban files on the other servers; here there is nothing to re-read, and it must not stop the list.
      process.on('SIGHUP', () => log.warn('SIGHUP ignored: the masterserver has nothing to read again'));
      announce('masterserver', o.name, server.ports);
    }),
  );


withPlayerOptions(
  withCommonOptions(program.command('slotserver').description('hand out game slots to players over TCP (Parsec slotserver protocol)'), {
    name: 'starlane-slots',
    port: SLOTSERVER_PORT,
    nameHelp: SERVER_NAME_HELP,
    // The slotserver checks its own names (spaces allowed inside); --master adds the no-space rule below.
    parseName: (v) => v,
  }),
  // A slotserver game is peer-to-peer, whose slot table holds at most 8 (MAX_SLOTS).
  MAX_SLOTS,
  `number of slots (1-${MAX_SLOTS}: its players send to each other; for more, run a gameserver, up to ${MAX_WIRE_SLOTS})`,
)
  .option('--udp-port <port>', `UDP port answering LAN discovery and players' time-sync requests (0 = any free port: the server is then not found on the LAN; with an IPv6 --host such as :: it also joins the udp6 discovery group)`, int(0, 65535), SLOTSERVER_UDP_PORT)
  .option('--silence-seconds <s>', "remove a joined player whose address sent no time-sync request to the UDP port for this long (Starlane clients send one a second; 0 = never)", seconds(0, 86_400), 30)
  .action(
    namingBusyPorts('slotserver', async (o: SlotOpts & { udpPort: number; silenceSeconds: number }, cmd: Command) => {
      checkMasterOptions(o, cmd);
      const log = createLogger('starlane-slotserver', o.logLevel);
      const link: { registration?: MasterRegistration } = {};
      const server = await startSlotserver({
        ...seatOptions(o, log, link),
        udpPort: o.udpPort,
        // Only the default may move: a port the user asked for is kept or the start fails.
        udpPortFallback: cmd.getOptionValueSource('udpPort') === 'default',
        silenceTimeoutMs: Math.round(o.silenceSeconds * 1000),
      });
      await serveAndRegister(o, log, server, 'slotserver', link, {
        '/': () => ({ type: 'html', body: renderSlotserverStatus(server).html }),
        '/status.json': () => ({ type: 'json', body: withProcessStatus(renderSlotserverStatus(server).json) }),
      });
    }),
  );

/** `--record <dir>` and `--record-keep <n>` of the game- and netgame server (common/matchRecorder.ts). */
const RECORD_OPTION = ['--record <dir>', "record every match into this folder, one demo file (.sldemo) per match with its ranking screen, playable by playdemo with any player's view (docs/DEMO.md)"] as const;
const RECORD_KEEP_OPTION = ['--record-keep <n>', 'with --record: keep the newest n files of this server, deleting older ones', int(1, 100_000), 20] as const;
/** `--max-spectators <n>` and `--spectator-delay <s>` of the game- and netgame server (game/spectatorStand.ts). */
const MAX_SPECTATORS_OPTION = ['--max-spectators <n>', 'seats for spectators (the spectate command), apart from the players\' seats; 0 for none', int(0, MAX_SPECTATOR_SEATS), DEFAULT_MAX_SPECTATORS] as const;
const SPECTATOR_DELAY_OPTION = ['--spectator-delay <seconds>', 'spectators see the game this many seconds late, so none can call out positions to a player (0: as it happens)', seconds(0, MAX_SPECTATOR_DELAY_S), 0] as const;

interface GameOpts extends SlotOpts, AgonesOpts {
  udpPort: number;
  announcePort?: number;
  announceUdpPort?: number;
  filterRadius: number;
  levelOfDetail: 'on' | 'off';
  tickHz: number;
  flush: 'arrival' | 'tick';
  gatherMs: number;
  timeoutSeconds: number;
  udpRate: number;
  strangerRate: number;
  strikeLimit: number;
  killLimit: number;
  timeLimit: number;
  record?: string;
  recordKeep: number;
  maxSpectators: number;
  spectatorDelay: number;
  galaxy?: string;
  universeKey?: string;
}

/** How often a gameserver tells its masterserver its solar systems' players. */
const SYSTEMS_EVERY_MS = 5000;

withAgonesOptions(withPlayerOptions(
  withCommonOptions(program.command('gameserver').description('relay game packets between players over UDP, joined over TCP (Parsec gameserver protocol)'), {
    name: 'starlane-game',
    port: GAMESERVER_PORT,
    nameHelp: SERVER_NAME_HELP,
    parseName: (v) => v,
  }),
  // Slot ids are a byte on the wire (255 = none): 255 players at most.
  MAX_WIRE_SLOTS,
  `number of slots (1-${MAX_WIRE_SLOTS})`,
  DEFAULT_GAMESERVER_PLAYERS,
))
  .option('--udp-port <port>', 'UDP port for game packets, time sync and LAN discovery (0 = any free port: the server is then not found on the LAN; with an IPv6 --host such as :: it also joins the udp6 discovery group)', int(0, 65535), GAMESERVER_UDP_PORT)
  .option('--announce-udp-port <port>', 'the UDP port players are told to send to, when a NAT or the container runtime maps --udp-port to another (docker run -p 7000:6522/udp: 7000; under --agones: the port the fleet gave its "game" port); default: --udp-port', int(1, 65535))
  .option('--announce-port <port>', 'the TCP join port the masterserver lists (and a universe\'s tickets name), when it is mapped to another (under --agones: the port the fleet gave its "join" port); default: --port', int(1, 65535))
  .option('--filter-radius <units>', 'players farther apart get no state of each other', number(1, 1e6, 'units'), 2000)
  .addOption(new Option('--level-of-detail <on|off>', 'far players\' states at lower rates: every state within half the filter radius, 10 a second within three quarters, 5 beyond (off: every state within the radius)').choices(['on', 'off']).default('on'))
  .option('--tick-hz <n>', 'server ticks per second (relays at the latest, pings, timeouts)', number(1, 1000, 'ticks per second'), 20)
  .addOption(new Option('--flush <when>', 'relay soon after game packets arrive (arrival, see --gather-ms) or only on the tick (fewest datagrams)').choices(['arrival', 'tick']).default('arrival'))
  .option('--gather-ms <ms>', `with --flush arrival: how long to gather arriving states before relaying, so each datagram carries several players' (0 = after each burst read; more players per core, at most this much more latency)`, int(0, MAX_GATHER_MS), DEFAULT_GATHER_MS)
  .option('--timeout-seconds <s>', 'free the seat of a player that sent no game datagram for this long (TCP lines do not count)', seconds(0.1, 3600), 10)
  .option('--udp-rate <n>', 'datagrams per second one source (address and port) may send; more are dropped unread (bursts of twice this pass)', number(10, 100_000, 'datagrams per second'), 200)
  .option('--stranger-rate <n>', 'datagrams per second all sources without a seat may send together (discovery, time sync, joins, floods); more are dropped unread, joined players are served first', number(100, 1_000_000, 'datagrams per second'), 2000)
  .option('--strike-limit <n>', 'strikes for impossible data (speed, teleports, lasers, events a player may not send), fading over 10 s, that drop a player', int(1, 1000), 10)
  .option('--kill-limit <n>', 'kills that win a match, 0 for none (the server keeps the score and runs the match)', int(0, MAX_KILL_LIMIT), RULES.match.killLimit)
  .option('--time-limit <seconds>', 'length of a match in seconds, 0 for none', int(0, MAX_TIME_LIMIT_S), RULES.match.timeLimitS)
  .option(...RECORD_OPTION)
  .option(...RECORD_KEEP_OPTION)
  .option(...MAX_SPECTATORS_OPTION)
  .option(...SPECTATOR_DELAY_OPTION)
  .option('--galaxy <file>', 'the solar systems this server hosts and their stargates (docs/GALAXY.md); a bad file is refused naming its line (default: one system, Sol)')
  .option('--universe-key <file>', "with --master: this server belongs to that masterserver's universe (the same key file): its gates lead to the other servers' solar systems")
  .action(
    namingBusyPorts('gameserver', async (o: GameOpts, cmd: Command) => {
      checkMasterOptions(o, cmd);
      if (o.universeKey !== undefined && !o.master) cmd.error('error: --universe-key needs --master (the masterserver routes the jumps)');
      const log = createLogger('starlane-gameserver', o.logLevel);
      const galaxy = o.galaxy === undefined ? undefined : await loadGalaxy(o.galaxy);
      const universeKey = o.universeKey === undefined ? undefined : await loadUniverseKey(o.universeKey);
      // Before any port opens: without its sidecar an Agones game server must not start.
      const agones = await startAgones(o, cmd, log);
      // Where players reach it: the admin's word, else (under Agones) the node's ports the fleet gave it, else where it listens.
      const mapped = agones ? await agones.link.hostPorts() : {};
      const announce = { ...mapped, ...(o.announcePort === undefined ? {} : { tcp: o.announcePort }), ...(o.announceUdpPort === undefined ? {} : { udp: o.announceUdpPort }) };
      const link: { registration?: MasterRegistration } = {};
      const seats = seatOptions(o, log, link);
      const started: { server?: Gameserver } = {};
      const server = await startGameserver({
        ...seats,
        onPlayersChanged: (count, max) => {
          seats.onPlayersChanged(count, max);
          if (started.server) agones?.players(started.server);
        },
        udpPort: o.udpPort,
        ...(announce.tcp !== undefined || announce.udp !== undefined ? { announce } : {}),
        filterRadius: o.filterRadius,
        levelOfDetail: o.levelOfDetail === 'on',
        tickHz: o.tickHz,
        flush: o.flush,
        gatherMs: o.gatherMs,
        timeoutMs: Math.round(o.timeoutSeconds * 1000),
        udpRate: o.udpRate,
        strangerRate: o.strangerRate,
        strikeLimit: o.strikeLimit,
        killLimit: o.killLimit,
        timeLimitS: o.timeLimit,
        maxSpectators: o.maxSpectators,
        spectatorDelayS: o.spectatorDelay,
        ...(o.record === undefined ? {} : { record: { dir: o.record, keep: o.recordKeep } }),
        ...(galaxy === undefined ? {} : { galaxy }),
        ...(universeKey === undefined ? {} : { universe: { key: universeKey, link: () => link.registration ?? null } }),
      }).catch((err: unknown) => {
        agones?.link.close();
        throw err;
      });
      started.server = server;
      // Its solar systems are listed at the masterserver; with the key it belongs to the universe there.
      const universe = {
        ...(universeKey ? { key: universeKey } : {}),
        systems: () => server.systems().map((s) => ({ name: s.name, players: s.players, gates: s.gates.map((g) => g.to) })),
        epoch: server.epoch,
        carried: (id: string, state: string) => server.carried(id, state),
      };
      await serveAndRegister(
        o,
        log,
        server,
        'gameserver',
        link,
        {
          '/': () => ({ type: 'html', body: renderGameserverStatus(server).html }),
          '/status.json': () => {
            const json = renderGameserverStatus(server).json;
            return { type: 'json', body: agones ? JSON.stringify({ ...(JSON.parse(json) as object), agones: agones.status() }) : json };
          },
        },
        { universe, announced: server.announced, ...agones?.extras(server, o.name, () => link.registration) },
      );
      // Players move between its systems without joining or leaving: the masterserver hears the counts every few seconds too.
      setInterval(() => {
        link.registration?.systemsChanged();
        // A renamed player is one the sidecar has not heard of yet.
        agones?.players(server);
      }, SYSTEMS_EVERY_MS).unref();
    }),
  );

interface NetgameOpts extends SlotOpts {
  udpPort: number;
  controlLead: number;
  serverLead: number;
  diffFrames: number;
  zlibLevel: number;
  timeoutSeconds: number;
  maxBehindFrames: number;
  udpRate: number;
  killLimit: number;
  timeLimit: number;
  record?: string;
  recordKeep: number;
  maxSpectators: number;
}

withPlayerOptions(
  withCommonOptions(program.command('netgame').description("run a netgame (Purple Martians' input sync): joined over TCP like a gameserver, the master moves array and state over UDP"), {
    name: 'starlane-netgame',
    port: NETGAME_PORT,
    nameHelp: SERVER_NAME_HELP,
    parseName: (v) => v,
  }),
  NETGAME_MAX_PLAYERS,
  `number of slots (1-${NETGAME_MAX_PLAYERS}: every client runs the whole world; for more, run a gameserver, up to ${MAX_WIRE_SLOTS})`,
)
  .option('--udp-port <port>', 'UDP port for the netgame messages and LAN discovery (0 = any free port: the server is then not found on the LAN)', int(0, 65535), NETGAME_UDP_PORT)
  .option('--control-lead <frames>', "smallest control lead (the seed's control_lead_frames); each client's grows with its round trip", int(1, MAX_CONTROL_LEAD), 3)
  .option('--server-lead <frames>', "frames clients run behind the server (the seed's server_lead_frames)", int(0, 10), 1)
  .option('--diff-frames <n>', 'frames between two state differences to each client', int(1, 400), 20)
  .option('--zlib-level <n>', "zlib level of state differences (the seed's zlib_cmp)", int(1, 9), 7)
  .option('--timeout-seconds <s>', 'free the seat of a player that sent no datagram for this long', seconds(0.1, 3600), 10)
  .option(
    '--max-behind-frames <n>',
    `drop a player whose game falls more than this many frames (25 ms each) behind the server's; one that stops reporting its frame falls a frame further behind every 25 ms (the seed's ${DEFAULT_MAX_BEHIND_FRAMES}: 2.5 s)`,
    int(MIN_MAX_BEHIND_FRAMES, MAX_MAX_BEHIND_FRAMES),
    DEFAULT_MAX_BEHIND_FRAMES,
  )
  .option('--udp-rate <n>', 'datagrams per second one source may send; more are dropped unread', number(10, 100_000, 'datagrams per second'), 200)
  .option('--kill-limit <n>', 'kills that win a match, 0 for none (the server steps the shared world, and its match)', int(0, MAX_KILL_LIMIT), RULES.match.killLimit)
  .option('--time-limit <seconds>', 'length of a match in seconds, 0 for none', int(0, MAX_TIME_LIMIT_S), RULES.match.timeLimitS)
  .option(...RECORD_OPTION)
  .option(...RECORD_KEEP_OPTION)
  .option(...MAX_SPECTATORS_OPTION)
  .action(
    namingBusyPorts('netgame', async (o: NetgameOpts, cmd: Command) => {
      checkMasterOptions(o, cmd);
      const log = createLogger('starlane-netgame', o.logLevel);
      const link: { registration?: MasterRegistration } = {};
      const server = await startNetgameServer({
        ...seatOptions(o, log, link),
        udpPort: o.udpPort,
        controlLead: o.controlLead,
        serverLead: o.serverLead,
        diffEvery: o.diffFrames,
        zlibLevel: o.zlibLevel,
        timeoutMs: Math.round(o.timeoutSeconds * 1000),
        maxBehindFrames: o.maxBehindFrames,
        udpRate: o.udpRate,
        matchLimits: { killLimit: o.killLimit, timeLimitS: o.timeLimit },
        maxSpectators: o.maxSpectators,
        ...(o.record === undefined ? {} : { record: { dir: o.record, keep: o.recordKeep } }),
      });
      await serveAndRegister(o, log, server, 'netgame', link, {
        '/': () => ({ type: 'html', body: renderNetgameStatus(server).html }),
        '/status.json': () => ({ type: 'json', body: renderNetgameStatus(server).json }),
      });
    }),
  );

program
  .command('keygen')
  .description("write a fresh universe key to a file (readable by its owner only): give the same file to the universe's masterserver and gameservers (--universe-key)")
  .argument('<file>', 'where to write it (an existing file is not overwritten)')
  .action(async (file: string) => {
    await writeUniverseKey(file);
    process.stdout.write(`universe key written to ${file}\n`);
  });

program.parseAsync().catch((err: unknown) => {
  process.stderr.write(`starlane-server: ${(err as Error).message}\n`);
  process.exit(1);
});
