import { validatePlayerName } from '../../shared/wire/strings';
import type { HostService } from './hostService';
import { subsystemCommand } from './subsystemCommand';
import { carryGame, protocolReport } from './protocolSwitch';
import { KEYS_HINT, keysCommand } from './keysCommand';
import { bindCommands } from './bindCommands';
import { registerPageCvars } from './pageCvars';
import { registerShipCvars } from './shipCvars';

const fmt = (n: number, digits = 1): string => n.toFixed(digits);

/**
 * Registers the commands every Starlane host has from start-up: `name`,
 * `clear`, `stats`, `keys`, `subsystems`, `packetapi`, `protocol`, `quit` (`help` is built into
 * the console core; its list ends with a line pointing at `keys`), and the archived `sensitivity` and `hud_stats` cvars (`stats 1` sets the
 * latter: the page shows tick rate and fps only while it, or the net graph, is on), and the page's own cvars (pageCvars.ts).
 * Returns a function that removes them again.
 */
export function registerCoreCommands(host: HostService): () => void {
  const c = host.console;
  const packetKind = host.subsystems.packetApi;
  const sensitivity = host.addCvar({
    name: 'sensitivity',
    type: 'float',
    default: 1,
    min: 0.1,
    max: 10,
    help: 'mouse steering sensitivity',
    flags: { archive: true },
  });
  // The gamepad's sticks (the page's gamepad.ts); its buttons are bindings.
  const joyDeadZone = host.addCvar({ name: 'joy_deadzone', type: 'float', default: 0.15, min: 0, max: 0.9, help: "gamepad sticks: travel around the centre that is ignored", flags: { archive: true } });
  const joyInvert = host.addCvar({ name: 'joy_invert', type: 'bool', default: false, help: 'gamepad: pull the left stick back to dive instead of to climb', flags: { archive: true } });
  const hudStats = host.addCvar({
    name: 'hud_stats',
    type: 'bool',
    default: false,
    help: 'show tick rate and fps on the HUD (stats 1 / stats 0; netgraph 1 shows them too)',
    flags: { archive: true },
  });
  c.helpFooter = [KEYS_HINT];
  const removers = [
    () => void (c.helpFooter = []),
    c.addCommand(keysCommand(() => host.settings.get().bindings)),
    ...bindCommands(host).map((def) => c.addCommand(def)),
    () => void c.removeCvar(sensitivity.name),
    () => void c.removeCvar(hudStats.name),
    () => void c.removeCvar(joyDeadZone.name),
    () => void c.removeCvar(joyInvert.name),
    // ui_scale, r_quality and m_invert: read only by the page.
    registerPageCvars(host),
    registerShipCvars(host),
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
          s.pilotNamed = true;
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
      help: 'show tick rate, frame rate, frame-time percentiles and packet counters; stats 1 keeps tick rate and fps on the HUD, stats 0 hides them',
      usage: '[0|1]',
      args: { max: 1 },
      complete: (_args, argIndex) => (argIndex === 0 ? ['0', '1'] : []),
      run: (args, out) => {
        const [on] = args;
        if (on !== undefined) {
          if (on !== '0' && on !== '1') return out.print(`stats: "${on}" is neither 0 nor 1 — stats 1 shows tick rate and fps on the HUD, stats 0 hides them`, 'error');
          hudStats.setValue(on === '1');
          return out.print(on === '1' ? 'tick rate and fps are on the HUD (stats 0 hides them)' : 'tick rate and fps are off the HUD (stats 1 shows them)');
        }
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
        for (const kind of host.subsystems.list()) {
          out.print(`${kind.kindName.padEnd(10)} ${(kind.bound() ?? '(unbound)').padEnd(8)} choices: ${kind.names().join(', ')}`);
        }
      },
    }),
    c.addCommand(
      subsystemCommand(host, packetKind, {
        what: 'the packet API (udp = IPv4, udp6 = IPv6)',
        detail: () => `listening on port ${packetKind.table.localPort()}`,
        remember: (name) =>
          host.settings.update((s) => {
            s.packetApi = name;
          }),
      }),
    ),
    // Playing when the switch came: carry the game over to the new protocol where that makes sense.
    c.addCommand(subsystemCommand(host, host.subsystems.protocol, protocolReport(host), carryGame(host))),
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
