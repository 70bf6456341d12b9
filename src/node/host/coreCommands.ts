import { validatePlayerName } from '../../shared/settings/settings';
import type { PacketApi } from '../../shared/net/packetApi';
import type { Protocol } from '../../shared/net/protocol';
import type { CommandDef } from '../../shared/console/registry';
import type { HostService } from './hostService';

const fmt = (n: number, digits = 1): string => n.toFixed(digits);

/**
 * Registers the commands every Starlane host has from start-up: `name`,
 * `clear`, `stats`, `subsystems`, `packetapi`, `quit` (`help` is built into
 * the console core), and the archived `sensitivity` cvar. Returns a function that removes them again.
 */
export function registerCoreCommands(host: HostService): () => void {
  const c = host.console;
  const packetKind = host.subsystems.kind<PacketApi>('packetapi');
  const protocolKind = host.subsystems.kind<Protocol>('protocol');
  const sensitivity = host.addCvar({
    name: 'sensitivity',
    type: 'float',
    default: 1,
    min: 0.1,
    max: 10,
    help: 'mouse steering sensitivity',
    flags: { archive: true },
  });
  const removers = [
    () => void c.removeCvar(sensitivity.name),
    c.addCommand({
      name: 'name',
      help: 'show or set your player name',
      usage: '[new name]',
      run: (args, out) => {
        if (args.length === 0) {
          out.print(`your name is "${host.settings.get().playerName}"`);
          return;
        }
        const checked = validatePlayerName(args.join(' '));
        if (!checked.ok) {
          out.print(`name not changed: ${checked.error}`, 'error');
          return;
        }
        const settings = host.settings.update((s) => {
          s.playerName = checked.name;
        });
        host.emit({ kind: 'settings', settings });
        out.print(`you are now known as ${checked.name}`);
      },
    }),
    c.addCommand({
      name: 'clear',
      help: 'clear the console screen',
      args: { max: 0 },
      run: () => host.clearConsole(),
    }),
    c.addCommand({
      name: 'stats',
      help: 'show tick rate, frame rate, frame-time percentiles and packet counters',
      args: { max: 0 },
      run: (_args, out) => {
        const s = host.loopStats;
        if (!s) out.print('no frame statistics yet (the game view has not reported)', 'warn');
        else {
          out.print(
            `tick rate ${fmt(s.tickHz)} Hz  fps ${fmt(s.fps)}  over ${fmt(s.windowS)} s (${s.ticks} ticks, ${s.frames} frames)`,
          );
          out.print(`frame time ms  p50 ${fmt(s.frameMsP50, 2)}  p95 ${fmt(s.frameMsP95, 2)}  p99 ${fmt(s.frameMsP99, 2)}`);
        }
        if (packetKind.bound()) {
          const p = packetKind.table.stats();
          const drops = Object.entries(p.drops)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ');
          out.print(
            `packets in ${p.packetsIn} (${p.bytesIn} B)  out ${p.packetsOut} (${p.bytesOut} B)  dropped: ${drops || 'none'}`,
          );
        }
      },
    }),
    c.addCommand({
      name: 'subsystems',
      help: 'list each subsystem kind, its bound implementation and the choices',
      args: { max: 0 },
      run: (_args, out) => {
        for (const [kind, bound] of Object.entries(host.subsystems.describe())) {
          const names = host.subsystems.kind(kind).names().join(', ');
          out.print(`${kind.padEnd(10)} ${(bound ?? '(unbound)').padEnd(8)} choices: ${names}`);
        }
      },
    }),
    c.addCommand(
      subsystemCommand(host, 'packetapi', 'the packet API (udp = IPv4, udp6 = IPv6)', () => `listening on port ${packetKind.table.localPort()}`, (name) =>
        host.settings.update((s) => {
          s.packetApi = name;
        }),
      ),
    ),
    c.addCommand(
      subsystemCommand(host, 'protocol', 'the network protocol', () => protocolKind.table.status(), undefined, {
        // Playing when the switch came: carry the game over to the new protocol where that makes sense.
        before: () => {
          const bound = protocolKind.bound();
          const where = bound ? (protocolKind.table.connection?.() ?? null) : null;
          return where && bound ? { ...where, kind: bound } : null;
        },
        after: async (was, now) => {
          if (now === 'offline') return;
          if (now === 'p2p') return void (await host.command('connect'));
          if (!was.host) return host.print(`type connect host[:port] to join a ${now}`);
          const h = was.host.includes(':') ? `[${was.host}]` : was.host;
          // The same server again (a restart of the protocol), or the other kind of server on the same host.
          await host.command(`connect ${was.kind === now && was.port ? `${h}:${was.port}` : h}`);
        },
      }),
    ),
    c.addCommand({
      name: 'quit',
      help: 'leave Starlane',
      args: { max: 0 },
      run: (_args, out) => {
        out.print('shutting down');
        host.emit({ kind: 'quit' });
        host.options.onQuit();
      },
    }),
  ];
  return () => removers.forEach((remove) => remove());
}

/**
 * `<kind> [name]` for one subsystem kind: without a name it shows what is
 * bound (plus `detail()`); with one it rebinds live through the jump table
 * and prints the outcome in one line (on failure, what is still bound).
 */
function subsystemCommand(
  host: HostService,
  kind: string,
  what: string,
  detail: () => string,
  remember?: (name: string) => void,
  carry?: {
    before(): { host?: string; port?: number; kind: string } | null;
    after(was: { host?: string; port?: number; kind: string }, now: string): Promise<void>;
  },
): CommandDef {
  const table = host.subsystems.kind(kind);
  return {
    name: kind,
    help: `show or switch ${what} while running`,
    usage: `[${table.names().join('|')}]`,
    args: { max: 1 },
    complete: (_args, index) => (index === 0 ? table.names() : []),
    run: async (args, out) => {
      const name = args[0];
      if (name === undefined) {
        const bound = table.bound();
        out.print(bound ? `${kind} is ${bound}: ${detail()}` : `no ${kind} is bound`);
        return;
      }
      const was = carry?.before() ?? null;
      const result = await table.bind(name);
      if (!result.ok) {
        const restored = result.restored ? `; still using ${result.restored}` : '';
        out.print(`${kind} ${name} failed: ${result.error}${restored}`, 'error');
        return;
      }
      out.print(`${kind} ${result.from ?? '(none)'} -> ${result.to}: ${detail()}`);
      remember?.(result.to);
      host.emit({ kind: 'subsystems', bound: host.subsystems.describe() });
      if (carry && was) {
        // Run after this command's own output, as its own step.
        setImmediate(() => void carry.after(was, result.to));
      }
    },
  };
}
