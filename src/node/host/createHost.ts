import { createSubsystems } from '../subsystems';
import { SettingsStore } from '../settings/store';
import { createLogger, type Logger } from '../log';
import { ConsoleCore } from '../../shared/console/registry';
import { HostService } from './hostService';
import { registerCoreCommands } from './coreCommands';

export interface CreateHostOptions {
  shell: 'electron' | 'browser';
  appVersion: string;
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
 * Builds a ready host: settings loaded (a bad file is reported, never fatal),
 * subsystems bound as the settings say, core commands registered. What went
 * wrong on the way is printed to the console as soon as the renderer listens.
 */
export async function createHost(options: CreateHostOptions): Promise<HostService> {
  const log = options.log ?? createLogger(`starlane-${options.shell}`);
  const { store, report } = await SettingsStore.open(options.userDataDir);
  const consoleCore = new ConsoleCore();
  // Protocols may print while they start; their output goes to the host once it exists.
  let host: HostService | null = null;
  const subsystems = createSubsystems({
    clientPort: options.clientPort,
    broadcastAddress: options.broadcastAddress,
    lanInterfaces: options.lanInterfaces,
    log: (line) => log.warn(line),
    print: (line) => host?.print(line),
    addCommand: (def) => consoleCore.addCommand(def),
  });
  host = new HostService({
    console: consoleCore,
    shell: options.shell,
    appVersion: options.appVersion,
    settings: store,
    subsystems,
    log,
    onQuit: options.onQuit,
  });
  registerCoreCommands(host);

  if (report.status === 'corrupt') {
    host.print(`settings file was unreadable (${report.issues.join('; ')}); defaults in use, old file kept as ${report.backupPath}`, 'warn');
    log.warn({ report }, 'settings file corrupt');
  } else if (report.status === 'repaired') {
    host.print(`settings: reset invalid entries to defaults: ${report.issues.join(', ')}`, 'warn');
    log.warn({ report }, 'settings repaired');
  }

  for (const [kind, name] of [
    ['packetapi', store.get().packetApi],
    ['protocol', 'offline'],
  ] as const) {
    const result = await subsystems.kind(kind).bind(name);
    if (!result.ok) {
      host.print(`could not start ${kind} ${name}: ${result.error}`, 'error');
      log.error({ kind, name, error: result.error }, 'subsystem init failed');
    }
  }
  host.print(`Starlane ${options.appVersion} — press \` to open or close this console, type help for commands`);
  return host;
}
