/**
 * Renderer entry: finds the host, builds the view, HUD and console, and
 * starts the loop. The host runs the game (one clock with the network); this
 * page samples the player's input every 25 ms, sends it up, and draws the
 * host's world views, interpolating between the last two. Everything the
 * player does in the console runs on the host.
 */
import { AUTO_LOOK, lookFromCvars } from '../../shared/wire/shipLook';
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import './menu/menu.css';
import type { HostApi, HostEvent } from '../../shared/host/contract';
import { cvarNumber, type Settings } from '../../shared/settings/settings';
import { NO_SLOT } from '../../shared/wire/types';
import { NO_INPUT, STEP_MS, type ShipInput } from '../../shared/sim/types';
import type { GameNotice } from '../../shared/game/clientGame';
import type { WorldView } from '../../shared/game/view';
import { connectHost } from './host/connect';
import { GameLoop } from './game/loop';
import { InputState } from './game/input';
import { PadWatch } from './game/gamepad';
import { isFullscreenKey, toggleFullscreen } from './view/fullscreen';
import { applyDisplay } from './view/display';
import { PlayerTable } from './net/playerTable';
import { PilotNames } from './net/pilotNames';
import { SceneView } from './view/scene';
import type { RemoteView } from './view/remoteShips';
import { Hud } from './view/hud';
import { StatusHud } from './view/status';
import { Scoreboard } from './view/scoreboard';
import { hasOpponents } from './view/hudText';
import { Targeting } from './game/target';
import { NetGraph } from './view/netGraph';
import { CombatHud } from './view/combat/combatHud';
import { killLine } from './view/combat/combatText';
import { uiScaleOf } from '../../shared/settings/display';
import { ConsoleView } from './console/consoleView';
import type { PageHooks } from '../../shared/host/pageHooks';
import { ConsoleSequence } from '../../shared/host/consoleSequence';
import { goldenRun } from '../../shared/game/goldenRun';
import { MATCH_OVER } from '../../shared/game/types';
import { MenuView } from './menu/menuView';
import { hostPanel, lanPanel, practicePanel } from './menu/startPanels';
import { mainPanel, pausePanel } from './menu/rootPanels';
import { demosPanel } from './menu/demosPanel';
import { serversPanel } from './menu/serversPanel';
import { settingsPanel } from './menu/settingsPanel';
// The page benchmark's scripted scene (window.__starlaneBench, bench/page.ts).
import './view/benchScene';
import { PageSound } from './sound/pageSound';

declare global {
  interface Window {
    __starlane?: PageHooks;
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
  /** The player typed quit: the host going away next is that, not a lost connection. */
  let quitting = false;
  const host: HostApi = await connectHost((reason) => {
    loop?.stop();
    // Marked on the page, so a test can tell the host has gone.
    document.body.dataset['host'] = 'closed';
    if (!quitting) banner(`Lost connection to the Starlane host: ${reason}`);
  });
  const snapshot = await host.hello();
  let settings: Settings = snapshot.settings;
  // Sound starts with the first key or click; the host's sound kind says whether it plays.
  const sound = new PageSound(document.body, settings, snapshot.subsystems);

  const hud = new Hud();
  const status = new StatusHud();
  const scoreboard = new Scoreboard();
  const targeting = new Targeting();
  const netGraph = new NetGraph(document.body);
  // Crosshair, target marks, lead, radar, missile warning, hit markers, rank (view/combat).
  const combat = new CombatHud(document.body);
  // The net graph with `netgraph 1`; tick rate and fps on the HUD with it, or with `stats 1`.
  const showNetGraph = () => {
    const graph = cvarNumber(settings, 'netgraph', 0) !== 0;
    netGraph.setVisible(graph);
    hud.showStats(graph || cvarNumber(settings, 'hud_stats', 0) !== 0);
  };
  showNetGraph();

  // The loop's own clock reading, shared: world views, notices and flashes use the time of
  // the frame they happen in, and the loop stays the only code that reads the clock.
  let now = performance.now();
  const clock = () => (now = performance.now());

  // Until the host's first tick arrives there is nothing to draw but stars.
  const empty: WorldView = { tick: 0, localSlot: 0, respawnSeconds: null, ships: [], objects: [], asteroids: [], scores: [], match: { phase: 0, secondsLeft: null, killLimit: 0, timeLimitS: 0, round: 0 }, lockedBy: [], bots: [], pings: [] };
  let prevView = empty;
  let currView = empty;
  let viewAt = now;
  let drawn: readonly RemoteView[] = [];
  const view = new SceneView(document.getElementById('view') as HTMLElement);
  // A key bound to a command that is no flight action (bind F5 "say gg") runs it in the host's console.
  const input = new InputState(settings.bindings, cvarNumber(settings, 'sensitivity', 1), (command) => host.command(command));
  input.attach(view.canvas);
  // ui_scale, r_quality and m_invert apply whenever the settings change (the settings screen, the console).
  const applyPageCvars = () => {
    applyDisplay(settings, view);
    combat.setUiScale(uiScaleOf(settings.cvars['ui_scale']));
    input.invertMouse = cvarNumber(settings, 'm_invert', 0) !== 0;
  };
  applyPageCvars();

  // One name per pilot on every screen: ours as we play under it, ours marked "(you)" among others.
  const names = new PilotNames({
    players: () => players.players,
    netSlot: () => players.localSlot,
    settingsName: () => settings.playerName,
    viewSlot: () => currView.localSlot,
    bots: () => currView.bots,
    watching: () => players.watching,
  });
  const shipName = (slot: number): string => names.of(slot);
  // The ships as their pilots chose them: ours from the settings, the others' from the slot table (shared/wire/shipLook.ts).
  // Watching (a spectator, a demo), the ship followed is its pilot's, in the look it chose.
  view.chosenLook = (slot) => (slot === currView.localSlot && !players.watching ? lookFromCvars(settings.cvars) : (players.players.find((p) => p.slot === slot)?.look ?? AUTO_LOOK));
  const labelOf = (slot: number): string | null => (slot === NO_SLOT ? null : names.label(slot));
  // The slots of the joined players: the scoreboard lists them before their first kill or death.
  let joinedSlots: number[] = [];
  const players = new PlayerTable({
    chat: (from, text) => hud.addChat(`${from}: ${text}`, now),
    playersChanged: () => {
      hud.setPlayers(players.players, players.localSlot, players.status, players.watching);
      hud.setName(names.own());
      joinedSlots = players.players.filter((p) => p.joined).map((p) => p.slot);
    },
  });
  hud.setName(names.own());
  // A page that reloads during a game starts from the host's picture: players and status.
  for (const delivery of snapshot.net) players.handle(delivery);
  const onNotice = (n: GameNotice) => {
    if (n.pos) view.explode(n.pos, now);
    hud.addFeed(killLine(names.label(n.slot), labelOf(n.killerSlot), n.cause), now);
  };

  // The game takes input only while neither the console nor the menu shows.
  let consoleOpen = false;
  let menu: MenuView | null = null;
  const steer = () => input.setEnabled(!consoleOpen && !(menu?.isOpen ?? false));
  // The browser takes Esc for itself while the pointer is captured (it releases the pointer and
  // the page never sees the key): a release that neither the console nor the menu asked for
  // (Esc, or the window losing focus) opens the pause menu, as Esc does.
  document.addEventListener('pointerlockchange', () => {
    if (document.pointerLockElement === null && !consoleOpen && menu !== null && !menu.isOpen && !quitting) host.command('menu pause');
  });
  const consoleView = new ConsoleView(document.getElementById('console') as HTMLElement, host, settings.history, (open) => {
    consoleOpen = open;
    steer();
    if (!open) menu?.focus();
  });

  // The menu over the game: the host says which page shows; every button runs console lines.
  let home: 'main' | 'pause' = 'main';
  let menuState = snapshot.menu;
  const menuCtx = { run: (line: string) => host.command(line), settings: () => settings, home: () => home, menu: () => menuState };
  const servers = serversPanel(menuCtx);
  menu = new MenuView(document.body, menuCtx, [mainPanel(menuCtx), practicePanel(menuCtx), lanPanel(menuCtx), hostPanel(menuCtx), servers, demosPanel(menuCtx), settingsPanel(menuCtx, { cvars: snapshot.cvars ?? [] }), pausePanel(menuCtx)]);
  const showMenu = (state: typeof snapshot.menu) => {
    menuState = state;
    if (state.page === 'main' || state.page === 'pause') home = state.page;
    menu?.show(state, settings.pilotNamed);
    steer();
  };
  showMenu(snapshot.menu);
  servers.update(snapshot.servers);
  // A gamepad, when one is plugged in (hot-plug is said in the console); its sticks read the joy_* cvars.
  const pads = new PadWatch(() => (typeof navigator.getGamepads === 'function' ? navigator.getGamepads() : []), (line) => consoleView.print(line, 'info'));
  input.pad = { current: () => pads.current(), config: () => ({ deadZone: cvarNumber(settings, 'joy_deadzone', 0.15), invertPitch: cvarNumber(settings, 'joy_invert', 0) !== 0 }) };

  // The toggle key is taken before anything else sees it (capture phase).
  window.addEventListener(
    'keydown',
    (e) => {
      // A menu page waiting for a key to bind takes every key first.
      if (menu?.takeKey(e)) {
        e.preventDefault();
        e.stopPropagation();
        return;
      }
      if (isFullscreenKey(e, snapshot.shell)) {
        e.preventDefault();
        e.stopPropagation();
        if (!e.repeat) toggleFullscreen(document, (line) => consoleView.print(line, 'warn'));
        return;
      }
      if (settings.bindings[e.code] === 'toggleconsole' || e.key === '`' || e.key === '~') {
        e.preventDefault();
        e.stopPropagation();
        if (!e.repeat) consoleView.toggle();
        return;
      }
      if (consoleView.isOpen || !menu) return;
      // The menu's keys while it shows; Esc in the game opens the pause menu.
      if (menu.isOpen ? menu.key(e) : e.key === 'Escape' && !e.repeat && (host.command('menu pause'), true)) {
        e.preventDefault();
        e.stopPropagation();
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
          menu.settingsChanged(settings.pilotNamed);
          hud.setName(names.own());
          input.setBindings(settings.bindings, cvarNumber(settings, 'sensitivity', 1));
          applyPageCvars();
          showNetGraph();
          sound.settingsChanged(settings);
          break;
        case 'subsystems':
          sound.subsystemsChanged(ev.bound);
          break;
        case 'sound':
          sound.batch(ev.batch);
          break;
        case 'net':
          players.handle(ev.delivery);
          break;
        case 'world':
          prevView = currView === empty ? ev.view : currView;
          currView = ev.view;
          viewAt = now;
          view.onWorld(currView, prevView);
          combat.onWorld(ev.view, now);
          for (const n of ev.notices) onNotice(n);
          break;
        case 'netgraph':
          netGraph.push(ev.sample);
          break;
        case 'menu':
          showMenu(ev.menu);
          break;
        case 'servers':
          servers.update(ev.browser);
          break;
        case 'quit':
          quitting = true;
          loop?.stop();
          banner('Starlane has quit. You can close this window.');
          break;
      }
    }
  };
  host.onEvents(onEvents);

  let hudRefresh = 0;
  let rendered = 0;
  let sampled: ShipInput | null = null;
  loop = new GameLoop(
    {
      // Every 25 ms of the page's clock: one input sample (mouse motion is consumed per sample).
      step: () => {
        // A gamepad drives the menu while it shows.
        const pad = pads.current();
        if (menu?.isOpen && pad) menu.pad(pad.buttons.map((b) => b.pressed), pad.axes[1] ?? 0);
        const s = input.sample();
        // The target key cycles through the ships in the newest view; every sample carries the choice.
        s.target = targeting.update(currView.ships, currView.localSlot, input.takeTargetPresses());
        sampled = document.hidden ? NO_INPUT : s;
      },
      render: () => {
        rendered += 1;
        // The host's ticks arrive 25 ms apart: draw the way from the previous one to the newest.
        const alpha = Math.min(1, Math.max(0, (now - viewAt) / STEP_MS));
        drawn = view.render(prevView, currView, alpha, shipName, now, targeting.slot);
        combat.frame({ prev: prevView, curr: currView, alpha, remotes: drawn, target: targeting.slot, camera: view.viewCamera, width: window.innerWidth, height: window.innerHeight, nowMs: now });
        netGraph.draw();
        scoreboard.update(currView, input.held('scoreboard'), shipName, joinedSlots);
      },
      afterFrame: (frame, stats) => {
        const batch = { frame, tick: currView.tick, ...(sampled ? { input: sampled } : {}) };
        sampled = null;
        host.frame(stats ? { ...batch, stats } : batch);
        if (stats) hud.setStats(stats);
        if (++hudRefresh % 6 === 0) {
          const ours = currView.ships.find((s) => s.slot === currView.localSlot);
          hud.setShip(ours);
          status.setShip(ours);
          status.setLock(currView.lockedBy, shipName);
          status.setTarget(targeting.slot, shipName);
          const opponents = hasOpponents(currView, players.players);
          status.setMatch(currView.match, opponents);
          combat.slow(currView, joinedSlots, opponents);
          // The match-end screen has the stage while it shows: no respawn countdown over it.
          hud.setDestroyed(currView.match.phase === MATCH_OVER ? null : currView.respawnSeconds);
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
    tick: () => currView.tick,
    world: () => currView,
    rendered: () => rendered,
    ship: () => {
      const v = currView.ships.find((s) => s.slot === currView.localSlot)?.vel ?? { x: 0, y: 0, z: 0 };
      return { speed: Math.hypot(v.x, v.y, v.z), lasers: currView.objects.filter((o) => o.kind === 'laser').length };
    },
    remotes: () => drawn.map((r) => ({ slot: r.slot, name: r.name, pos: { ...r.pos } })),
    chat: () => hud.chatLines(),
    overlays: () => ({ scoreboard: scoreboard.boardVisible, matchEnd: scoreboard.endVisible, lockWarning: currView.lockedBy.length > 0, target: targeting.slot }),
    goldenRun: (options) => goldenRun(options),
    hud: () => combat.state(),
    scene: () => view.state(),
    ...sound.hooks(),
    menu: () => (menu?.isOpen ? (document.querySelector<HTMLElement>('#menu > section:not([hidden])')?.id ?? 'open') : 'off'),
  };
}

boot().catch((err: unknown) => {
  banner(`Starlane could not start: ${(err as Error).message}`);
  console.warn(err);
});
