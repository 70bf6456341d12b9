/**
 * The demo commands (docs/DEMO.md): `record [name]` and `stop` write what
 * this client's game receives and does into the user-data demos/ folder;
 * `demos` lists them; `playdemo <name>` (and `play`, the brief's name)
 * shows one through the same game and renderer path as live play, no
 * network bound, steered by `demo pause|resume|speed|seek|camera`;
 * `timedemo <name>` plays one as fast as it goes and prints its figures.
 * A protocol switch during a recording ends the file cleanly and starts
 * the next, and says so.
 */
import { GamePlayback } from '../../shared/demo/gamePlayback';
import { DemoSession, MAX_DEMO_SPEED, MIN_DEMO_SPEED } from '../../shared/demo/demoSession';
import { DEMO_PROTOCOLS, type DemoProtocol } from '../../shared/demo/demoFormat';
import { timedemo, timedemoLine } from '../../shared/demo/timedemo';
import type { ConsoleOutput } from '../../shared/console/registry';
import { ClientRecording } from '../demo/clientRecording';
import { defaultDemoName, demoFile, demoListLine, demoNameProblem, ensureDemoDir, listDemos, openDemoFile } from '../demo/demoLibrary';
import { APP_VERSION } from '../version';
import { NO_INPUT } from '../../shared/sim/types';
import type { HostService } from './hostService';
import { goOffline } from './practiceCommand';

interface Recording {
  recording: ClientRecording;
  name: string;
  /** The name the player gave (or the default), and the file number: a protocol switch goes on in name-2, name-3… */
  base: string;
  part: number;
  stopWatch: () => void;
}

export function registerDemoCommands(host: HostService, o: { demosDir: string }): void {
  let current: Recording | null = null;
  const verbose = () => host.console.cvar('net_verbose')?.value === true;

  /** Starts recording into demo `name`; the line saying so, or why not. */
  async function start(name: string, base: string, part: number): Promise<{ ok: boolean; line: string }> {
    const game = host.game;
    if (!game) return { ok: false, line: 'record: the game is not running' };
    await ensureDemoDir(o.demosDir);
    const table = game.pageAttached().find((d) => d.kind === 'players');
    const bound = host.subsystems.protocol.bound() ?? 'offline';
    const protocol: DemoProtocol = (DEMO_PROTOCOLS as readonly string[]).includes(bound) ? (bound as DemoProtocol) : 'offline';
    const where = host.subsystems.protocol.bound() !== null ? (host.subsystems.protocol.table.connection?.() ?? null) : null;
    // Offline there is no slot table: our ship's slot, and the bots named as the HUD names them.
    const online = table?.kind === 'players' && table.localSlot !== null;
    const localSlot = online ? table.localSlot : game.game.localSlot;
    const me = host.settings.peek().playerName;
    const players = online ? table.players.map((p) => ({ slot: p.slot, name: p.name })) : [{ slot: localSlot as number, name: me }, ...game.game.bots.map((slot) => ({ slot, name: `bot ${slot}` }))];
    const started = await ClientRecording.start({
      game: game.game,
      path: demoFile(o.demosDir, name),
      protocol,
      server: where?.host !== undefined && where.port !== undefined ? `${where.host}:${where.port}` : null,
      recorder: { slot: localSlot, name: me },
      players,
      seed: null,
      hooks: {
        digest: (d) => {
          if (verbose()) host.print(`demo ${name}: ${d.frame ? 'frame' : 'tick'} ${d.tick} digest ${d.hash}`);
        },
        failed: (reason) => {
          host.print(`recording ${name} stopped: ${reason}`, 'error');
          if (current?.name === name) end();
        },
      },
    });
    if (!started.ok) return { ok: false, line: `record: ${started.reason}` };
    const recording = started.recording;
    // Chat goes into the demo as text.
    const stopWatch = game.watch((d) => {
      if (d.kind === 'chat') recording.text(`${d.from}: ${d.text}`);
    });
    current = { recording, name, base, part, stopWatch };
    return { ok: true, line: `recording demo ${name} (${protocol}) into ${recording.path}; stop ends it` };
  }

  /** Ends the recording; the line saying what was recorded. */
  async function end(reason = 'stopped'): Promise<string | null> {
    const c = current;
    if (!c) return null;
    current = null;
    c.stopWatch();
    const r = await c.recording.stop(reason);
    await refreshNames();
    return `recorded demo ${c.name}: ${r.seconds.toFixed(1)} s, ${r.chunks} chunks, ${Math.round(r.bytes / 1024)} KiB`;
  }

  // A protocol switch ends the file and starts the next one.
  const off = host.subsystems.protocol.onChange(async (change) => {
    // Joining a game ends the demo being watched: the game shows again.
    const watching = host.game?.demo;
    if (watching && change.to !== 'offline') {
      host.game?.stopDemo();
      host.print(`demo ${watching.name} stopped: switched to ${change.to}`);
    }
    const c = current;
    if (!c || change.from === change.to) return;
    const done = await end(`switched to ${change.to}`);
    const next = `${c.base}-${c.part + 1}`;
    const again = await start(next, c.base, c.part + 1);
    host.print(`${done ?? ''} (the switch to ${change.to} ended it); ${again.ok ? `recording goes on in demo ${next}` : again.line}`, again.ok ? 'info' : 'error');
  });
  host.onDispose(() => {
    off();
    void end('Starlane quit');
  });

  host.console.addCommand({
    name: 'record',
    help: 'record a demo of this game into the demos folder (default name: the date, time and protocol); stop ends it',
    usage: '[name]',
    args: { max: 1 },
    run: async (args, out) => {
      if (host.game?.demo) return out.print('record: a demo is playing; stop it first', 'error');
      if (current) return out.print(`record: already recording demo ${current.name} (stop ends it)`, 'error');
      const name = args[0] ?? defaultDemoName(new Date(), host.subsystems.protocol.bound() ?? 'offline');
      const problem = demoNameProblem(name);
      if (problem) return out.print(`record: ${problem}`, 'error');
      const r = await start(name, name, 1);
      out.print(r.line, r.ok ? 'info' : 'error');
    },
  });

  host.console.addCommand({
    name: 'stop',
    help: 'stop recording the demo, or stop the demo playing',
    args: { max: 0 },
    run: async (_args, out) => {
      const game = host.game;
      if (game?.demo) {
        const name = game.demo.name;
        game.stopDemo();
        return out.print(`demo ${name} stopped`);
      }
      const line = await end();
      out.print(line ?? 'stop: not recording and no demo playing (record starts a recording)', line ? 'info' : 'error');
    },
  });

  host.console.addCommand({
    name: 'demos',
    help: 'list the demos in the demos folder: name, date, length, protocol, players',
    args: { max: 0 },
    run: async (_args, out) => {
      const list = await readFolder();
      if (list.length === 0) return out.print(`no demos in ${o.demosDir} (record makes one)`);
      out.print(`${list.length} demo${list.length === 1 ? '' : 's'} in ${o.demosDir}:`);
      for (const e of list) out.print(`  ${demoListLine(e)}`);
    },
  });

  // Tab completion is synchronous: the names as the folder last showed them (read at start, by demos and after each recording).
  let known: string[] = [];
  const refreshNames = async (): Promise<void> => {
    known = (await listDemos(o.demosDir).catch(() => [])).map((e) => e.name);
  };
  void refreshNames();
  /** Reads the folder into the names for completion and the Demos page's list. */
  const readFolder = async (): Promise<Awaited<ReturnType<typeof listDemos>>> => {
    const list = await listDemos(o.demosDir).catch(() => []);
    known = list.map((e) => e.name);
    host.setMenu({ demos: list.map((e) => ({ name: e.name, line: demoListLine(e) })) });
    return list;
  };
  host.onMenuOpen('demos', () => void readFolder());
  const demoNames = (): string[] => known;

  /** Opens demo `name` for playback, or says why not. */
  async function open(cmd: string, name: string, out: ConsoleOutput): Promise<GamePlayback | null> {
    const file = await openDemoFile(o.demosDir, name);
    if (!file.ok) {
      out.print(`${cmd}: ${file.reason}`, 'error');
      return null;
    }
    const opened = GamePlayback.open(file.read, APP_VERSION);
    if (!opened.ok) {
      out.print(`${cmd}: cannot play ${name}: ${opened.reason}`, 'error');
      return null;
    }
    const p = opened.playback;
    p.hooks.digest = (d) => {
      if (d.hash !== d.recorded) out.print(`${cmd} ${name}: at ${d.frame ? 'frame' : 'tick'} ${d.tick} the replay differs from the recording (${d.hash}, recorded ${d.recorded})`, 'warn');
      else if (verbose()) host.print(`demo ${name}: ${d.frame ? 'frame' : 'tick'} ${d.tick} digest ${d.hash}`);
    };
    return p;
  }

  const playdemo = async (args: string[], out: ConsoleOutput, cmd: string): Promise<void> => {
    const game = host.game;
    if (!game) return out.print(`${cmd}: the game is not running`, 'error');
    const name = args[0] as string;
    if (current) return out.print(`${cmd}: recording demo ${current.name}; stop it first`, 'error');
    const p = await open(cmd, name, out);
    if (!p) return;
    if (!(await goOffline(host, out))) return;
    const h = p.header;
    p.hooks.text = (line) => host.print(`[demo] ${line}`);
    const session = new DemoSession(name, p);
    game.stopDemo();
    game.playDemo(session, () => host.print(p.failure ? `demo ${name} stopped at ${p.failure}` : `demo ${name} played to its end (${p.digests.matched} of ${p.digests.checked} digests matched); stop goes back to the game`, p.failure || p.digests.differed.length > 0 ? 'warn' : 'info'));
    host.setMenu({ page: 'off', dialog: null });
    out.print(`playing demo ${name}: ${(p.durationMs / 1000).toFixed(1)} s of a ${h.protocol} game${h.server ? ` on ${h.server}` : ''} recorded by ${h.recorder.name} — demo pause | speed <x> | seek <s> | camera recorder|follow|free; stop ends it`);
  };
  for (const [name, help] of [
    ['playdemo', 'play a demo from the demos folder through the game view (leaves any network game): demo steers it, stop ends it'],
    ['play', 'the same as playdemo'],
  ] as const) {
    host.console.addCommand({ name, help, usage: '<name>', args: { min: 1, max: 1 }, complete: (_a, i) => (i === 0 ? demoNames() : []), run: (args, out) => playdemo(args, out, name) });
  }

  host.console.addCommand({
    name: 'timedemo',
    help: 'play a demo as fast as it goes and print its frames, fps and frame-time percentiles (each frame: the replayed tick and the view the renderer would draw)',
    usage: '<name>',
    args: { min: 1, max: 1 },
    complete: (_a, i) => (i === 0 ? demoNames() : []),
    run: async (args, out) => {
      const name = args[0] as string;
      const p = await open('timedemo', name, out);
      if (!p) return;
      const session = new DemoSession(name, p);
      const r = timedemo(p, () => performance.now(), (tick) => void session.frame(NO_INPUT, tick));
      const digests = `${p.digests.matched} of ${p.digests.checked} digests matched`;
      out.print(`${timedemoLine(name, r)}; ${digests}${p.failure ? `; stopped at ${p.failure}` : ''}`, p.failure || p.digests.differed.length > 0 ? 'warn' : 'info');
    },
  });

  host.console.addCommand({
    name: 'demo',
    help: `steer the demo playing: pause, resume, speed <${MIN_DEMO_SPEED}..${MAX_DEMO_SPEED}>, seek <seconds>, camera recorder|follow [next|prev|<slot>]|free`,
    usage: 'pause|resume|speed <x>|seek <s>|camera <recorder|follow|free> [next|prev|slot]',
    args: { min: 1, max: 3 },
    complete: (a, i) => (i === 0 ? ['pause', 'resume', 'speed', 'seek', 'camera'] : i === 1 && a[0] === 'camera' ? ['recorder', 'follow', 'free'] : i === 2 && a[1] === 'follow' ? ['next', 'prev'] : []),
    run: (args, out) => {
      const s = host.game?.demo;
      if (!s) return out.print('demo: no demo is playing (playdemo <name> plays one; demos lists them)', 'error');
      const [what, a, b] = args as [string, string | undefined, string | undefined];
      const num = (v: string | undefined) => (v !== undefined && /^[0-9]+(\.[0-9]+)?$/.test(v) ? Number(v) : null);
      switch (what) {
        case 'pause':
        case 'resume':
          s.paused = what === 'pause';
          return out.print(s.statusLine());
        case 'speed': {
          const x = num(a);
          if (x === null) return out.print(`demo speed: give a speed from ${MIN_DEMO_SPEED} to ${MAX_DEMO_SPEED} (got ${a ?? 'none'})`, 'error');
          s.setSpeed(x);
          return out.print(s.statusLine());
        }
        case 'seek': {
          const sec = num(a);
          if (sec === null) return out.print(`demo seek: give the second to go to (got ${a ?? 'none'})`, 'error');
          const problem = s.seek(sec * 1000);
          return problem ? out.print(`demo seek: ${problem}`, 'error') : out.print(s.statusLine());
        }
        case 'camera': {
          if (a === 'recorder') s.camera = { mode: 'recorder' };
          else if (a === 'free') s.freeCamera();
          else if (a === 'follow') {
            const slot = b === undefined || b === 'next' ? s.cycle(1) : b === 'prev' ? s.cycle(-1) : num(b);
            if (slot === null) return out.print('demo camera follow: no ship to follow', 'error');
            if (b !== undefined && b !== 'next' && b !== 'prev') {
              if (!s.slots().includes(slot)) return out.print(`demo camera follow: no ship in slot ${slot} (ships: ${s.slots().join(', ') || 'none'})`, 'error');
              s.camera = { mode: 'follow', slot };
            }
          } else return out.print('demo camera: recorder, follow [next|prev|<slot>] or free', 'error');
          return out.print(s.statusLine());
        }
        default:
          return out.print(`demo: ${what} is none of pause, resume, speed, seek, camera`, 'error');
      }
    },
  });
}
