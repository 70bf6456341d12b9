/**
 * Renderer entry: finds the host, builds the world, view, HUD and console,
 * and starts the 40 Hz loop. Everything the player does in the console runs
 * on the host; this page simulates and draws the local game.
 */
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import type { HostApi, HostEvent } from '../../shared/host/contract';
import { cvarNumber, type Settings } from '../../shared/settings/settings';
import { DEFAULT_CONVERGE_MS } from '../../shared/net/smoothing';
import { NO_SLOT } from '../../shared/wire/types';
import { connectHost } from './host/connect';
import { GameLoop } from './game/loop';
import { InputState } from './game/input';
import { LocalGame } from './game/localGame';
import { RemotePlayers } from './net/remotePlayers';
import { SceneView } from './view/scene';
import { Hud } from './view/hud';
import { NetGraph } from './view/netGraph';
import { ConsoleView } from './console/consoleView';
import type { PageHooks } from '../../shared/host/pageHooks';
import { ConsoleSequence } from '../../shared/host/consoleSequence';
import { goldenRun } from '../../shared/sim/goldenRun';

declare global {
  interface Window {
    __starlane?: PageHooks;
  }
}

/** The kill-feed line for a destroyed ship (the killer is null when unknown). */
function killLine(victim: string, killer: string | null): string {
  return killer === null ? `${victim} was shot down` : `${victim} was shot down by ${killer}`;
}

function banner(text: string): void {
  const el = document.getElementById('banner');
  if (!el) return;
  el.textContent = text;
  el.hidden = false;
}

async function boot(): Promise<void> {
  let loop: GameLoop | null = null;
  const host: HostApi = await connectHost((reason) => {
    loop?.stop();
    banner(`Lost connection to the Starlane host: ${reason}`);
  });
  const snapshot = await host.hello();
  let settings: Settings = snapshot.settings;

  const hud = new Hud();
  hud.setName(settings.playerName);
  const netGraph = new NetGraph(document.body);
  const showNetGraph = () => netGraph.setVisible(cvarNumber(settings, 'netgraph', 0) !== 0);
  showNetGraph();
  const smoothMs = () => cvarNumber(settings, 'net_smooth', DEFAULT_CONVERGE_MS);

  // The loop's own clock reading, shared: net deliveries, smoothing and flashes use the time of
  // the frame they happen in, and the loop stays the only code that reads the clock.
  let now = performance.now();
  const clock = () => (now = performance.now());

  // Offline world from a fixed seed: every peer starts with the same asteroids; other players'
  // ships are drawn from the network, not simulated here.
  const game = new LocalGame(0x5741524c);
  const view = new SceneView(document.getElementById('view') as HTMLElement, game.shipId);
  const input = new InputState(settings.bindings, cvarNumber(settings, 'sensitivity', 1));
  input.attach(view.canvas);

  const nameOf = (slot: number): string | null => (slot === NO_SLOT ? null : remotes.nameOf(slot));
  const remotes = new RemotePlayers(
    {
      laser: (slot, laser) => game.addRemoteLaser(slot, laser),
      removeObject: (id) => game.removeRemoteObject(id),
      shipDestroyed: (victim, killer, pos) => {
        if (pos) view.explode(pos, now);
        hud.addFeed(killLine(remotes.nameOf(victim), nameOf(killer)), now);
      },
      chat: (from, text) => hud.addChat(`${from}: ${text}`, now),
      playersChanged: () => {
        hud.setPlayers(remotes.players, remotes.localSlot, remotes.status);
        game.setSpawnSlot(remotes.localSlot);
      },
    },
    smoothMs(),
  );
  // A page that reloads during a game starts from the host's picture: players, status, remote ships.
  for (const delivery of snapshot.net) remotes.handle(delivery, now);
  // A spawn point another ship sits on is not taken (entering a game, respawning).
  game.otherShips = () => remotes.lastDrawn.map((r) => r.pos);
  game.onDestroyed = (pos, killerSlot) => {
    view.explode(pos, now);
    hud.addFeed(killLine(settings.playerName, nameOf(killerSlot)), now);
  };

  const consoleView = new ConsoleView(document.getElementById('console') as HTMLElement, host, settings.history, (open) =>
    input.setEnabled(!open),
  );

  // The toggle key is taken before anything else sees it (capture phase).
  window.addEventListener(
    'keydown',
    (e) => {
      if (e.code === settings.bindings.console || e.key === '`' || e.key === '~') {
        e.preventDefault();
        e.stopPropagation();
        if (!e.repeat) consoleView.toggle();
      }
    },
    { capture: true },
  );

  // The backlog, then only console events newer than it (see ConsoleSequence).
  for (const line of snapshot.consoleBacklog) consoleView.print(line.text, line.level);
  const consoleSeq = new ConsoleSequence(snapshot);

  const onEvents = (events: HostEvent[]) => {
    for (const ev of events) {
      switch (ev.kind) {
        case 'console':
          if (consoleSeq.fresh(ev)) consoleView.print(ev.text, ev.level);
          break;
        case 'console-clear':
          if (consoleSeq.fresh(ev)) consoleView.clear();
          break;
        case 'settings':
          settings = ev.settings;
          hud.setName(settings.playerName);
          input.setBindings(settings.bindings, cvarNumber(settings, 'sensitivity', 1));
          remotes.setConvergeMs(smoothMs());
          showNetGraph();
          break;
        case 'subsystems':
          break;
        case 'net':
          remotes.handle(ev.delivery, now);
          break;
        case 'netgraph':
          netGraph.push(ev.sample);
          break;
        case 'quit':
          loop?.stop();
          banner('Starlane has quit. You can close this window.');
          break;
      }
    }
  };
  host.onEvents(onEvents);

  let hudRefresh = 0;
  let rendered = 0;
  loop = new GameLoop(
    {
      // While destroyed the ship is out of the world; input is still sampled so mouse motion is consumed.
      step: () => game.step(input.sample()),
      render: (alpha) => {
        rendered += 1;
        view.render(game.prev, game.curr, alpha, remotes.sample(now), now);
        netGraph.draw();
      },
      afterFrame: (frame, stats) => {
        const batch = { frame, tick: game.curr.tick, game: game.takeUpdate() };
        host.frame(stats ? { ...batch, stats } : batch);
        if (stats) hud.setStats(stats);
        if (++hudRefresh % 6 === 0) {
          hud.setShip(game.curr.ships[0]);
          hud.setDestroyed(game.dead ? game.respawnSeconds : null);
          hud.prune(now);
        }
      },
    },
    clock,
  );
  loop.start();

  window.__starlane = {
    ready: true,
    consoleText: () => consoleView.text(),
    consoleScreen: () => consoleView.screenText(),
    tick: () => game.curr.tick,
    rendered: () => rendered,
    ship: () => {
      const v = game.curr.ships[0]?.vel ?? { x: 0, y: 0, z: 0 };
      return { speed: Math.hypot(v.x, v.y, v.z), lasers: game.curr.lasers.length };
    },
    remotes: () => remotes.lastDrawn.map((r) => ({ slot: r.slot, name: r.name, pos: { ...r.pos } })),
    chat: () => hud.chatLines(),
    goldenRun: (options) => goldenRun(options),
  };
}

boot().catch((err: unknown) => {
  banner(`Starlane could not start: ${(err as Error).message}`);
  console.warn(err);
});
