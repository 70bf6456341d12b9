/**
 * Renderer entry: finds the host, builds the world, view, HUD and console,
 * and starts the 40 Hz loop. Everything the player does in the console runs
 * on the host; this page simulates and draws the local game.
 */
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import type { HostApi, HostEvent } from '../../shared/host/contract';
import { cvarNumber, type Settings } from '../../shared/settings/settings';
import { createWorld } from '../../shared/sim/world';
import { stepWorld } from '../../shared/sim/step';
import type { World } from '../../shared/sim/types';
import { connectHost } from './host/connect';
import { GameLoop } from './game/loop';
import { InputState } from './game/input';
import { SceneView } from './view/scene';
import { Hud } from './view/hud';
import { ConsoleView } from './console/consoleView';

declare global {
  interface Window {
    /** Read-only hooks for the end-to-end tests and for players poking around in devtools. */
    __starlane?: { ready: boolean; consoleText(): string; tick(): number; rendered(): number; ship(): { speed: number; lasers: number } };
  }
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

  // Offline single-player world for now; the network layer will add peers' ships.
  const seed = 0x5741524c;
  let prev: World = createWorld(seed);
  let curr: World = prev;
  const localShipId = curr.ships[0]?.id ?? 0;

  const viewEl = document.getElementById('view') as HTMLElement;
  const view = new SceneView(viewEl, localShipId);
  const input = new InputState(settings.bindings, cvarNumber(settings, 'sensitivity', 1));
  input.attach(view.canvas);

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

  for (const line of snapshot.consoleBacklog) consoleView.print(line.text, line.level);

  const onEvents = (events: HostEvent[]) => {
    for (const ev of events) {
      switch (ev.kind) {
        case 'console':
          consoleView.print(ev.text, ev.level);
          break;
        case 'console-clear':
          consoleView.clear();
          break;
        case 'settings':
          settings = ev.settings;
          hud.setName(settings.playerName);
          input.setBindings(settings.bindings, cvarNumber(settings, 'sensitivity', 1));
          break;
        case 'subsystems':
          break;
        case 'quit':
          loop?.stop();
          banner('Starlane has quit. You can close this window.');
          break;
      }
    }
  };
  host.onEvents(onEvents);

  let hudShipRefresh = 0;
  let rendered = 0;
  loop = new GameLoop({
    step: () => {
      prev = curr;
      curr = stepWorld(curr, [input.sample()]);
    },
    render: (alpha) => {
      rendered += 1;
      view.render(prev, curr, alpha);
    },
    afterFrame: (frame, stats) => {
      host.frame(stats ? { frame, tick: curr.tick, stats } : { frame, tick: curr.tick });
      if (stats) hud.setStats(stats);
      if (++hudShipRefresh % 6 === 0) hud.setShip(curr.ships[0]);
    },
  });
  loop.start();

  window.__starlane = {
    ready: true,
    consoleText: () => consoleView.text(),
    tick: () => curr.tick,
    rendered: () => rendered,
    ship: () => {
      const v = curr.ships[0]?.vel ?? { x: 0, y: 0, z: 0 };
      return { speed: Math.hypot(v.x, v.y, v.z), lasers: curr.lasers.length };
    },
  };
}

boot().catch((err: unknown) => {
  banner(`Starlane could not start: ${(err as Error).message}`);
  console.warn(err);
});
