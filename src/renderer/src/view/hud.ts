import type { NetPlayer } from '../../../shared/net/gameLink';
import type { ShipView } from '../../../shared/game/view';
import type { LoopStatsSnapshot } from '../../../shared/util/stats';
import { byId } from './dom';
import { markedAsYou, WATCHED_MARK } from '../net/pilotNames';

/** Lines kept per message list (chat, kill feed). */
export const HUD_MAX_LINES = 5;
/** A message line starts fading after this long (the CSS animation delay in styles.css). */
export const HUD_LINE_FADE_MS = 8000;
/** …and is removed this long after it arrived (fade delay + fade time). */
export const HUD_LINE_LIFE_MS = 9000;

/**
 * The heads-up display: player name, speed, and — only while `stats 1` or
 * `netgraph 1` asks for them — tick rate and fps (our ship's
 * combat figures are in status.ts); the destroyed/respawn notice; the player list with the network
 * status; the kill feed and chat lines. Numbers are written a few times a
 * second, lists when they change, never every frame, so the DOM work stays
 * off the hot path. All text goes in through textContent (peer names and
 * chat are untrusted).
 */
export class Hud {
  private readonly name = byId('hud-name');
  private readonly speed = byId('hud-speed');
  private readonly tick = byId('hud-tick');
  private readonly fps = byId('hud-fps');
  private readonly stats = byId('hud-stats');
  private readonly dead = byId('hud-dead');
  private readonly status = byId('hud-status');
  private readonly players = byId('hud-players');
  private readonly feed = byId('hud-feed');
  private readonly chat = byId('hud-chat');
  private deadSeconds: number | null = null;
  /** Arrival time (loop clock, ms) of each message element, for pruning. */
  private readonly born = new WeakMap<Element, number>();

  setName(name: string): void {
    this.name.textContent = name;
  }

  /** Speed of the local ship (nothing changes while it has none). */
  setShip(ship: ShipView | undefined): void {
    if (!ship) return;
    const v = ship.vel;
    this.speed.textContent = Math.sqrt(v.x * v.x + v.y * v.y + v.z * v.z).toFixed(0);
  }

  /** Shows or hides the tick rate and fps line (the `stats` and `netgraph` switches). */
  showStats(on: boolean): void {
    this.stats.hidden = !on;
    // The ship panel above the pilot lines moves up with them (styles.css).
    document.body.classList.toggle('hud-stats-on', on);
  }

  setStats(stats: LoopStatsSnapshot): void {
    this.tick.textContent = stats.tickHz.toFixed(1);
    this.fps.textContent = stats.fps.toFixed(0);
  }

  /** Shows "destroyed — respawning in N s" while `seconds` is a number, hides it for null. */
  setDestroyed(seconds: number | null): void {
    if (seconds === this.deadSeconds) return;
    this.deadSeconds = seconds;
    this.dead.hidden = seconds === null;
    if (seconds !== null) this.dead.textContent = `destroyed — respawning in ${seconds} s`;
  }

  /** Rebuilds the player list: slot, joined marker (● joined, ○ connected only), name, ours marked "(you)" (`watching`: the one followed marked "(watching)"). */
  setPlayers(players: readonly NetPlayer[], localSlot: number | null, status: string, watching = false): void {
    this.status.textContent = status;
    const rows = players.map((p) => {
      const li = document.createElement('li');
      const local = p.local || p.slot === localSlot;
      li.className = local ? 'local' : '';
      li.textContent = `${p.slot} ${p.joined ? '●' : '○'} ${local ? (watching ? `${p.name}${WATCHED_MARK}` : markedAsYou(p.name)) : p.name}`;
      return li;
    });
    this.players.replaceChildren(...rows);
  }

  /** Adds a kill-feed line ("owl was shot down by pilot-2 (you)"). */
  addFeed(text: string, nowMs: number): void {
    this.addLine(this.feed, text, nowMs);
  }

  /** Adds a chat line ("from: text"). */
  addChat(text: string, nowMs: number): void {
    this.addLine(this.chat, text, nowMs);
  }

  /** The chat lines on screen, oldest first. */
  chatLines(): string[] {
    return Array.from(this.chat.children, (el) => el.textContent ?? '');
  }

  /** Removes message lines older than HUD_LINE_LIFE_MS (call a few times a second). */
  prune(nowMs: number): void {
    for (const list of [this.feed, this.chat]) {
      let first = list.firstElementChild;
      while (first && nowMs - (this.born.get(first) ?? nowMs) >= HUD_LINE_LIFE_MS) {
        first.remove();
        first = list.firstElementChild;
      }
    }
  }

  private addLine(list: HTMLElement, text: string, nowMs: number): void {
    const div = document.createElement('div');
    div.className = 'hud-line';
    div.textContent = text;
    this.born.set(div, nowMs);
    list.append(div);
    while (list.childElementCount > HUD_MAX_LINES) list.firstElementChild?.remove();
  }
}
