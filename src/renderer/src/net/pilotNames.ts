/**
 * One name per pilot on every screen of the page. The name a pilot plays
 * under: ours is the slot table's in a network game (a peer-to-peer game
 * may have made "pilot" into "pilot-2" for that game) and the settings'
 * offline; a computer pilot of the offline game is "bot <slot>"; anyone else
 * is the slot table's. Where our name stands among others — the player
 * list, the scoreboard, the match-end screen, the kill feed — it is marked
 * the one way, "pilot-2 (you)", like the console's `players` list.
 */
import type { NetPlayer } from '../../../shared/net/gameLink';

/** What marks our own name among others. */
export const YOU_MARK = ' (you)';

/** What marks the player followed by someone watching. */
export const WATCHED_MARK = ' (watching)';

/** `name` marked as ours: "pilot-2 (you)". */
export function markedAsYou(name: string): string {
  return `${name}${YOU_MARK}`;
}

/** What the names are read from, each time they are asked for (the slot table, the settings and the world view change under them). */
export interface NameSources {
  /** The slot table as last delivered, and our slot in it (null: not in a network game). */
  players(): readonly NetPlayer[];
  netSlot(): number | null;
  /** The player name in the settings. */
  settingsName(): string;
  /** Our slot in the world view (0 offline), and the slots computer pilots fly. */
  viewSlot(): number;
  bots(): readonly number[];
  /** Watching (a spectator, a demo): the view's slot is the player followed, whose name is not ours to mark. */
  watching?(): boolean;
}

export class PilotNames {
  constructor(private readonly from: NameSources) {}

  /** The name we play under: the slot table's entry for us in a network game, else the settings'. */
  own(): string {
    const slot = this.from.netSlot();
    if (slot === null) return this.from.settingsName();
    const players = this.from.players();
    const us = players.find((p) => p.local) ?? players.find((p) => p.slot === slot);
    return us?.name ?? this.from.settingsName();
  }

  /** The plain name of the pilot of `slot` ("slot N" when nobody knows it). */
  of(slot: number): string {
    if (slot === this.from.viewSlot()) return this.own();
    if (this.from.bots().includes(slot)) return `bot ${slot}`;
    return this.from.players().find((p) => p.slot === slot)?.name ?? `slot ${slot}`;
  }

  /** The name of the pilot of `slot` as it stands among others: ours marked "(you)". */
  label(slot: number): string {
    return slot === this.from.viewSlot() && !this.from.watching?.() ? markedAsYou(this.own()) : this.of(slot);
  }
}
