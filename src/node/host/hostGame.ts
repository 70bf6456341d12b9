/**
 * The game as the host runs it: the GameDriver (ClientGame + one clock with
 * the network) steered by the renderer's inputs, sending each tick's world
 * (with the protocol's per-player round trips for the scoreboard) to the
 * pages as a `world` event, and the network's slot tables and chat as
 * `net` events — remembered as a {@link NetPicture} for pages that attach
 * later. The pages only draw; a hidden, minimised or closed window stalls
 * neither the game nor the network.
 */
import type { HostEvent } from '../../shared/host/contract';
import type { NetDelivery, PlayerPing } from '../../shared/net/gameLink';
import { NetPicture } from '../../shared/net/netPicture';
import { ClientGame, sanitiseInput, worldView, type GameNotice } from '../../shared/game';
import { GameDriver } from '../../shared/protocol/gameDriver';
import { viewEvents, type WorldView } from '../../shared/game/view';
import type { WorldEvent } from '../../shared/game/events';
import { NO_INPUT, type ShipInput } from '../../shared/sim/types';
import { BotCrew } from '../../shared/game/pilots/crew';
import { HitLedger } from '../../shared/game/hitLedger';
import type { ShipLook } from '../../shared/wire/shipLook';
import { systemClock, type Clock } from '../../shared/time/clock';
import type { DemoSession } from '../../shared/demo/demoSession';
import { WatchCamera } from '../../shared/game/watchCamera';
import { NO_SLOT } from '../../shared/wire/types';

type PlayersDelivery = Extract<NetDelivery, { kind: 'players' }>;

/** An input older than this (no page drawing: closed, frozen, throttled) counts as no input: the ship does not fly on by itself. */
export const INPUT_STALE_MS = 250;

export interface HostGameOptions {
  playerName(): string;
  /** The ship look the player chose (the `ship_design` and `ship_colour` cvars); absent: left to the slot. */
  shipLook?(): ShipLook;
  sendFrequency(): number;
  autoJoin(): boolean;
  /** Correction time of remote ships' smoothing (the `net_smooth` cvar), read every tick. */
  convergeMs(): number;
  /** The bound protocol's per-player round trips (Protocol.playerPings), read every tick for the world view; absent: none. */
  pings?(): PlayerPing[];
  /** Sends an event to every page. */
  emit(event: HostEvent): void;
  clock?: Clock;
}

/** One tick as the host ran it (HostGame.onTick). */
export interface HostTick {
  view: WorldView;
  notices: readonly GameNotice[];
  /** What the tick did (ClientGame.events; a lockstep frame that waited repeats the last ones: compare view ticks). */
  events: readonly WorldEvent[];
  /** Our ship's input for the tick. */
  input: ShipInput;
}

export class HostGame {
  readonly driver: GameDriver;
  /** The hunt pilots flying the offline game's bots (`bot add`). */
  readonly crew = new BotCrew();
  private input: ShipInput = NO_INPUT;
  private inputAt = -Infinity;
  private readonly picture = new NetPicture();
  private readonly clock: Clock;
  private readonly watchers = new Set<(d: NetDelivery) => void>();
  private readonly tickers = new Set<(tick: HostTick) => void>();
  /** The input our ship was given for the tick running now. */
  private fed: ShipInput = NO_INPUT;
  /** Hits our screen saw, until the deciding game's word confirms or withdraws them. */
  private readonly hits = new HitLedger();
  /** The tick whose events the last world view carried (WorldView.events). */
  private eventsTick = -1;
  /** The demo being watched instead of the game (playdemo), with what to do at its end; null in play. */
  private watching: { session: DemoSession; ended: () => void; endSaid: boolean; status: string } | null = null;
  /** The camera while watching a network game live (a spectator, or connected but not joined): watchCamera.ts. */
  readonly camera = new WatchCamera();
  /** The network's last slot table, and what the pages were last told of it while watching live (its followed slot and status). */
  private livePlayers: PlayersDelivery | null = null;
  private watchTold: string | null = null;

  constructor(private readonly options: HostGameOptions) {
    this.clock = options.clock ?? systemClock;
    this.driver = new GameDriver({
      clock: this.clock,
      game: new ClientGame({ convergeMs: options.convergeMs() }),
      playerName: options.playerName,
      ...(options.shipLook ? { shipLook: options.shipLook } : {}),
      sendFrequency: options.sendFrequency,
      autoJoin: options.autoJoin,
      // While a demo plays the player's controls fly its free camera, not the ship.
      // So do they while watching a network game live: there is no ship of ours to fly.
      input: () => (this.fed = this.watching === null && !this.game.watching ? this.freshInput() : NO_INPUT),
      botInputs: (game) => this.crew.inputs(game),
      onDeliver: (d) => this.delivered(d),
      onTick: (game, notices) => {
        game.convergeMs = options.convergeMs();
        if (this.watching) return this.showDemo(this.watching);
        const own = worldView(game, this.pings());
        const plain = game.watching ? this.watchLive(game, own) : own;
        this.tellWatching(game, plain.localSlot);
        // The hit markers' verdicts: what the game that decides each hit our screen saw said of it (hitLedger.ts).
        const hits = this.hits.tick(plain, game, this.clock.now());
        // The tick's pickups and blows on our ship, once: a lockstep frame that waited shows the same tick and its events again.
        const events = plain.tick !== this.eventsTick ? viewEvents(game.events, game.localSlot) : [];
        this.eventsTick = plain.tick;
        const view = hits.length > 0 || events.length > 0 ? { ...plain, ...(hits.length > 0 ? { hits } : {}), ...(events.length > 0 ? { events } : {}) } : plain;
        options.emit({ kind: 'world', view, notices });
        for (const t of this.tickers) t({ view, notices, events: game.events, input: this.fed });
      },
    });
  }

  /**
   * The view while watching a network game live: our unjoined ship (if any) is
   * nobody's to see, and the watch camera follows a player (fire: the next,
   * the missile key: the previous) or flies free on the controls.
   */
  private watchLive(game: ClientGame, own: WorldView): WorldView {
    const mine = game.localSlot;
    const world = mine === NO_SLOT ? game.curr : { ...game.curr, ships: game.curr.ships.filter((s) => s.slot !== mine) };
    const plain = mine === NO_SLOT ? own : { ...own, ships: own.ships.filter((s) => s.slot !== mine), localSlot: NO_SLOT, respawnSeconds: null, lockedBy: [] };
    const input = this.freshInput();
    this.camera.keys(world, NO_SLOT, input);
    return this.camera.view(plain, world, NO_SLOT, input);
  }

  /** While watching live, the pages' slot table marks the player followed and its status line says so; back in play, the table as it is. */
  private tellWatching(game: ClientGame, followed: number): void {
    const live = this.livePlayers;
    if (live === null) return;
    if (!game.watching) {
      if (this.watchTold !== null) this.options.emit({ kind: 'net', delivery: live });
      this.watchTold = null;
      return;
    }
    const d = this.watchedPlayers(live, followed);
    const key = `${followed}|${d.status}`;
    if (key === this.watchTold) return;
    this.watchTold = key;
    this.options.emit({ kind: 'net', delivery: d });
  }

  /** The slot table `live` as a watcher sees it: the followed player as "local", the camera in the status line. */
  private watchedPlayers(live: PlayersDelivery, followed: number): PlayersDelivery {
    const name = live.players.find((p) => p.slot === followed)?.name;
    const cam = this.camera.mode.mode === 'free' ? 'free camera' : name === undefined ? 'nobody to follow yet' : `following ${name}`;
    const players = live.players.filter((p) => p.slot !== NO_SLOT && !(p.local && !p.joined)).map((p) => ({ ...p, local: p.slot === followed }));
    return { ...live, players, localSlot: followed, status: `${live.status}; watching, ${cam} (fire: next player, missile key: previous)`, watching: true };
  }

  private freshInput(): ShipInput {
    return this.clock.now() - this.inputAt <= INPUT_STALE_MS ? this.input : NO_INPUT;
  }

  /** The demo being watched, or null. */
  get demo(): DemoSession | null {
    return this.watching?.session ?? null;
  }

  /**
   * Shows `session` instead of the game from the next tick on, through the
   * same world and sound path as live play; `ended` is called once when it
   * has played to its end. The game goes on underneath (offline: playdemo
   * leaves any network game first).
   */
  playDemo(session: DemoSession, ended: () => void): void {
    this.watching = { session, ended, endSaid: false, status: '' };
  }

  /** Back to the game: the pages are told its slot table again. */
  stopDemo(): void {
    if (!this.watching) return;
    this.watching = null;
    // The game's own table again (offline practice never had one: an empty one clears the demo's).
    const live = this.picture.replay(this.clock.now()).filter((d) => d.kind === 'players');
    for (const d of live.length > 0 ? live : [{ kind: 'players' as const, players: [], localSlot: null, status: '' }]) this.options.emit({ kind: 'net', delivery: d });
  }

  private showDemo(w: NonNullable<HostGame['watching']>): void {
    const f = w.session.tick(this.freshInput());
    this.options.emit({ kind: 'world', view: f.view, notices: f.notices });
    for (const t of this.tickers) t({ view: f.view, notices: f.notices, events: f.events, input: NO_INPUT });
    const players = this.demoPlayers(w.session, f.view.localSlot);
    if (players.status !== w.status) {
      w.status = players.status;
      this.options.emit({ kind: 'net', delivery: players });
    }
    if (f.ended && !w.endSaid) {
      w.endSaid = true;
      w.ended();
    }
  }

  /** The demo's slot table as the HUD shows it, its status line the demo's place, speed and camera. */
  private demoPlayers(session: DemoSession, followed: number): Extract<NetDelivery, { kind: 'players' }> {
    const slots = new Set([...session.names.keys(), ...session.slots()]);
    const players = [...slots].sort((a, b) => a - b).map((slot) => ({ slot, name: session.names.get(slot) ?? (session.playback.game.bots.includes(slot) ? `bot ${slot}` : `slot ${slot}`), joined: true, local: slot === followed, address: '' }));
    return { kind: 'players', players, localSlot: followed, status: session.statusLine(), watching: true };
  }

  /** The game every protocol carries. */
  get game(): ClientGame {
    return this.driver.game;
  }

  start(): void {
    this.driver.start();
  }

  stop(): void {
    this.driver.stop();
  }

  /** The player's input from a page (already validated); used from the next tick on. */
  setInput(input: ShipInput): void {
    this.input = sanitiseInput(input);
    this.inputAt = this.clock.now();
  }

  /** A page (re)attached: what it must be told to show the network as it stands (the slot table and status). */
  pageAttached(): NetDelivery[] {
    const w = this.watching;
    if (w) return [this.demoPlayers(w.session, w.session.followedSlot())];
    const live = this.picture.replay(this.clock.now()).filter((d) => d.kind === 'players');
    const last = live[live.length - 1];
    if (this.game.watching && last?.kind === 'players') return [this.watchedPlayers(last, this.camera.followedSlot(this.game.curr, NO_SLOT))];
    return live;
  }

  /**
   * Calls `watcher` with every delivery the network makes to the game (states
   * and events included), for tools and tests that watch the network the way
   * the headless bot's JSON log does. Returns the unsubscribe function.
   */
  watch(watcher: (d: NetDelivery) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /**
   * Calls `listener` after every tick with its world view, notices, events
   * and our ship's input (the sound kind derives its cues from them), after
   * the tick's `world` event. Returns the unsubscribe function.
   */
  onTick(listener: (tick: HostTick) => void): () => void {
    this.tickers.add(listener);
    return () => this.tickers.delete(listener);
  }

  /** The protocol's round trips; a protocol bug must not stop the game, the scoreboard then shows none. */
  private pings(): PlayerPing[] {
    try {
      return this.options.pings?.() ?? [];
    } catch {
      return [];
    }
  }

  private delivered(d: NetDelivery): void {
    this.picture.record(d, this.clock.now());
    if (d.kind === 'players') {
      this.livePlayers = d;
      // Told again, as a watcher sees it, at the next tick.
      this.watchTold = null;
    }
    for (const w of this.watchers) w(d);
    // Ship states and object events went into the game; the pages see them in the world.
    if (d.kind === 'players' || d.kind === 'chat') this.options.emit({ kind: 'net', delivery: d });
  }
}
