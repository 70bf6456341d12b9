import { createSubsystems, type NetSubsystems } from '../subsystems';
import { lookFromCvars } from '../../shared/wire/shipLook';
import { SETTINGS_FILE, SettingsStore, readSettingsFile, type SettingsLoadReport } from '../settings/store';
import { claimInstanceProfile, seedInstanceSettings, type InstanceProfile } from '../settings/instanceProfile';
import { defaultSettings } from '../../shared/settings/settings';
import { join } from 'node:path';
import { createLogger, type Logger } from '../log';
import { ConsoleCore, type FallbackHandler } from '../../shared/console/registry';
import { HostService } from './hostService';
import { registerCoreCommands } from './coreCommands';
import { registerBotCommands } from './botCommands';
import { registerHostCommand } from './hostCommand';
import { registerWatchCommands } from './watchCommands';
import { linkConditionsOf, registerNetCvars, type NetCvars } from './netCvars';
import { registerMatchCvars } from './matchCvars';
import { NetGraphSampler } from './netGraph';
import { NO_CONDITIONS, describeConditions, isConditioned, type LinkConditions } from '../../shared/net/linkConditions';
import { HostGame } from './hostGame';
import { DEFAULT_CONVERGE_MS } from '../../shared/net/smoothing';
import { registerServersCommand } from './serversCommand';
import { registerMenuCommand } from './menuCommand';
import { registerPracticeCommand } from './practiceCommand';
import { GameDialogs } from './gameDialogs';
import { switchTo } from './protocolSwitch';
import { registerSoundCommands, soundAtStart } from './soundCommands';
import { registerDemoCommands } from './demoCommands';

export interface CreateHostOptions {
  shell: 'electron' | 'browser';
  appVersion: string;
  /** The user-data folder; a second instance running at once uses a folder inside it (see instanceProfile.ts). */
  userDataDir: string;
  /** UDP port the packet API asks for first (default 6526; the next free one is used when taken). */
  clientPort?: number;
  /** udp broadcast address (default 255.255.255.255). */
  broadcastAddress?: string;
  /** udp6 interfaces joining the discovery group (default all external; [] none). */
  lanInterfaces?: readonly string[];
  onQuit: () => void;
  log?: Logger;
}

/**
 * Quake habit: a line that is not a command is chat, when a protocol offers
 * `say`. A single word that looks like a mistyped command still gets the
 * "unknown command — did you mean" answer rather than going out as chat.
 */
function plainTextIsChat(core: ConsoleCore): FallbackHandler {
  return async (line, args, out) => {
    const first = args[0] ?? '';
    const say = core.command('say');
    if (!say || (args.length === 1 && core.suggest(first).length > 0)) {
      out.print(core.unknownCommandMessage(first), 'error');
      return;
    }
    await say.run([line.trim()], out);
  };
}

/** The console line saying which settings file this instance uses, and why when it is not the main one. */
function settingsLine(profile: InstanceProfile, store: SettingsStore, report: SettingsLoadReport, userDataDir: string): string {
  if (profile.instance === 1) return `settings: ${store.path}`;
  const holder = profile.mainHeldBy === null ? '' : ` (pid ${profile.mainHeldBy})`;
  const seeded = report.status === 'seeded' ? `; its first settings were copied from there, named "${store.peek().playerName}"` : '';
  return `settings: ${store.path} — instance ${profile.instance}: another Starlane${holder} is using ${join(userDataDir, SETTINGS_FILE)}, so this one keeps its own name, history and cvars here${seeded}`;
}

/**
 * Builds a ready host: the instance's settings folder claimed (the user-data
 * folder, or instance-n inside it while another Starlane uses it), settings
 * loaded (a bad file is reported, never fatal), subsystems bound as the
 * settings say, core commands registered. What went wrong on the way is
 * printed to the console as soon as the renderer listens.
 */
export async function createHost(options: CreateHostOptions): Promise<HostService> {
  const log = options.log ?? createLogger(`starlane-${options.shell}`);
  const profile = await claimInstanceProfile(options.userDataDir);
  const seed = async () => seedInstanceSettings((await readSettingsFile(options.userDataDir)) ?? defaultSettings(), profile.instance);
  let opened: Awaited<ReturnType<typeof SettingsStore.open>>;
  try {
    opened = await SettingsStore.open(profile.dir, profile.instance > 1 ? { seed } : {});
  } catch (err) {
    profile.release();
    throw err;
  }
  const { store, report } = opened;
  const consoleCore = new ConsoleCore();
  // Protocols may print while they start; their output goes to the host once it exists.
  let host: HostService | null = null;
  let cvars: NetCvars | null = null;
  let dialogs: GameDialogs | null = null;
  const game = new HostGame({
    playerName: () => store.peek().playerName,
    shipLook: () => lookFromCvars(store.peek().cvars),
    sendFrequency: () => cvars?.sendfreq.value ?? 20,
    autoJoin: () => cvars?.autojoin.value ?? true,
    convergeMs: () => cvars?.smooth.value ?? DEFAULT_CONVERGE_MS,
    // Read at every tick, after the subsystems exist (the game starts below).
    pings: () => (subsystems.protocol.bound() !== null && typeof subsystems.protocol.table.playerPings === 'function' ? subsystems.protocol.table.playerPings() : []),
    emit: (event) => host?.emit(event),
  });
  // The link conditioner reads this object for every datagram; the net_fake* cvars rewrite it in place.
  const link: LinkConditions = { ...NO_CONDITIONS };
  const subsystems = createSubsystems({
    game: game.driver,
    linkConditions: () => link,
    p2pConfig: () => ({ maxPlayers: cvars?.maxplayers.value ?? 4 }),
    lockstep: () => ({ lead: cvars?.inputLead.value ?? 0, matchLimits: game.game.matchLimits }),
    clientPort: options.clientPort,
    broadcastAddress: options.broadcastAddress,
    lanInterfaces: options.lanInterfaces,
    log: (line) => log.warn(line),
    print: (line) => host?.print(line),
    // The clock's figures and the like: for a player looking into a problem (net_verbose 1), in the log always.
    printDetail: (line) => {
      log.debug(line);
      if (cvars?.verbose.value) host?.print(line);
    },
    addCommand: (def) => consoleCore.addCommand(def),
    leavingFor: () => host?.switching ?? null,
    pickServer: (text) => serverList.pick(text),
    switchTo: (protocol, target) => void switchTo(host as HostService, protocol, target),
    // A lost game or a failed join: a dialog, or the reason in the server browser (gameDialogs.ts).
    connectionEnded: (outcome, line, target) => dialogs?.ended(outcome, line, target),
    // The sound kind's webaudio: cues from the game's ticks, to the pages.
    sound: { ticks: (listener) => game.onTick(listener), send: (batch) => host?.emit({ kind: 'sound', batch }) },
  });
  host = new HostService({
    console: consoleCore,
    shell: options.shell,
    appVersion: options.appVersion,
    settings: store,
    subsystems,
    log,
    onQuit: options.onQuit,
    release: profile.release,
  });
  const shown = new GameDialogs(host);
  dialogs = shown;
  game.watch((d) => shown.delivered(d));
  registerCoreCommands(host);
  registerBotCommands(host);
  registerHostCommand(host);
  registerWatchCommands(host);
  registerMenuCommand(host);
  registerPracticeCommand(host);
  registerSoundCommands(host);
  registerDemoCommands(host, { demosDir: join(options.userDataDir, 'demos') });
  // `servers lan` asks where the game's own discovery goes (tests keep it on loopback).
  const serverList = registerServersCommand(host, {
    ...(options.broadcastAddress !== undefined ? { broadcastAddress: options.broadcastAddress } : {}),
    ...(options.lanInterfaces !== undefined ? { lanInterfaces: options.lanInterfaces } : {}),
  });
  consoleCore.fallback = plainTextIsChat(consoleCore);
  cvars = registerNetCvars(host);
  host.game = game;
  registerMatchCvars(host);
  // The game runs from now until the host is disposed, page or no page.
  game.start();
  host.onDispose(() => game.stop());
  wireLinkAndGraph(host, cvars, link, subsystems);

  if (report.status === 'corrupt') {
    host.print(`settings file was unreadable (${report.issues.join('; ')}); defaults in use, old file kept as ${report.backupPath}`, 'warn');
    log.warn({ report }, 'settings file corrupt');
  } else if (report.status === 'repaired') {
    host.print(`settings: reset invalid entries to defaults: ${report.issues.join(', ')}`, 'warn');
    log.warn({ report }, 'settings repaired');
  }

  for (const [kind, name] of [
    [subsystems.packetApi, store.get().packetApi],
    [subsystems.protocol, 'offline'],
    [subsystems.sound, soundAtStart(store.get().sound)],
  ] as const) {
    const result = await kind.bind(name);
    if (!result.ok) {
      host.print(`could not start ${kind.kindName} ${name}: ${result.error}`, 'error');
      log.error({ kind: kind.kindName, name, error: result.error }, 'subsystem init failed');
    }
  }
  host.print(`Starlane ${options.appVersion} — press \` to open or close this console, type help for commands`);
  host.print(settingsLine(profile, store, report, options.userDataDir));
  log.info({ settings: store.path, instance: profile.instance }, 'settings file');
  return host;
}

/**
 * The net_fake* cvars rewrite `link` (with one console line whenever the
 * conditioning changes, so nobody forgets it is on), and `netgraph` starts
 * and stops the sampler that feeds the renderer's graph.
 */
function wireLinkAndGraph(host: HostService, cvars: NetCvars, link: LinkConditions, subsystems: NetSubsystems): void {
  const apply = (): void => {
    const was = isConditioned(link);
    Object.assign(link, linkConditionsOf(cvars));
    if (isConditioned(link)) {
      host.print(`link conditioned (testing): ${describeConditions(link)} on every datagram sent and received; set the net_fake* cvars to 0 to stop`, 'warn');
    } else if (was) {
      host.print('link no longer conditioned: datagrams pass unchanged');
    }
  };
  for (const cvar of [cvars.fakelag, cvars.fakejitter, cvars.fakeloss, cvars.fakedup, cvars.fakereorder]) cvar.onChange(apply);

  const protocols = subsystems.protocol;
  const graph = new NetGraphSampler(
    {
      traffic: () => subsystems.traffic(),
      linkStats: () => (protocols.bound() !== null && typeof protocols.table.linkStats === 'function' ? protocols.table.linkStats() : null),
      fake: () => (isConditioned(link) ? describeConditions(link) : ''),
      now: () => performance.now(),
    },
    (sample) => host.emit({ kind: 'netgraph', sample }),
  );
  const toggle = (on: boolean): void => (on ? graph.start() : graph.stop());
  cvars.netgraph.onChange(toggle);
  toggle(cvars.netgraph.value);
  host.onDispose(() => graph.stop());
}
