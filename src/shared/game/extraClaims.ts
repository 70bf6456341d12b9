/**
 * Extras between client games of the Parsec protocols. The arena's owner
 * (the lowest joined slot when no gameserver runs the match; the gameserver's
 * own side is src/node/servers/game/arenaOwner.ts) spawns them, and a destroyed
 * ship's game drops what it carried; each goes out as a createExtra of its
 * owner (the "authority" below for that extra). A player whose ship flies
 * through one takes it on its own screen at once and claims it (a reliable
 * killObject of the owner's extra naming itself as the "killer"). The owner
 * answers every claim, and tells everyone, with a killObject of that extra
 * naming who got it: the first claim wins; a claim for an extra already
 * taken, or from a ship nowhere near it, is refused, and the refused claimer
 * undoes its pickup. The owner's own pickups are told the same way.
 */
import { NO_SLOT } from '../wire/types';
import { undoExtra } from './combat';
import { SHIP_RADIUS } from './kinds/ship';
import { RULES } from './rules';
import { MATCH_OWNER, type Extra, type World } from './types';
import type { WorldEvent } from './events';

/** How far (units) beyond the pickup reach the authority still believes a claim: the claimer's ship as the authority sees it lags its own. */
export const CLAIM_SLACK = 80;
/** Most answers the authority remembers (which extra went to whom), and most claims a player keeps waiting. */
const MEMORY = 64;

/** An answer to a claim, or news of a pickup: extra `id` (the authority's local id) went to `winner` (NO_SLOT: nobody). */
export interface ExtraAnswer {
  id: number;
  winner: number;
}

/** A claim we send: extra `id` (local id) of the authority in slot `owner`. */
export interface ExtraClaim {
  owner: number;
  id: number;
}

const low = (id: number): number => id & 0xffff;

export class ExtraClaims {
  /** Authority: local extra id → the slot that got it. */
  private readonly taken = new Map<number, number>();
  /** Authority: answers to send with the next tick. */
  private answers: ExtraAnswer[] = [];
  /** Claimer: `${owner}:${id}` → the type we took, until the authority answers. */
  private readonly pending = new Map<string, number>();

  /** Answers due (authority), emptied. */
  takeAnswers(): ExtraAnswer[] {
    const out = this.answers;
    this.answers = [];
    return out;
  }

  /**
   * What our ship did this tick that others must hear of: extras it took
   * (ours are settled at once, others' claimed) and other players' mines
   * that went off under it (everyone must see them gone).
   */
  fromTick(events: readonly WorldEvent[], local: number): ExtraClaim[] {
    const claims: ExtraClaim[] = [];
    for (const e of events) {
      if (e.type === 'pickup' && e.slot === local) {
        if (e.owner === MATCH_OWNER) this.tookOwn(e.id, local);
        else claims.push(this.claimed(e.owner, e.id, e.extra));
      } else if (e.type === 'hit' && e.slot === local && e.cause === 'mine' && e.id !== undefined && e.by !== local && e.by >= 0) {
        claims.push({ owner: e.by, id: e.id & 0xffff });
      }
    }
    return claims;
  }

  /** Authority: our own ship (slot `local`) took extra `id`: everyone must hear it is gone. */
  tookOwn(id: number, local: number): void {
    this.remember(low(id), local);
    this.answers.push({ id: low(id), winner: local });
  }

  /**
   * Authority: `claimer` claims our extra `id`. The first plausible claim
   * wins — the extra leaves our world — and every claim is answered.
   * Returns the world after it.
   */
  onClaim(world: World, claimer: number, id: number): World {
    const extra = world.objects.find((o): o is Extra => o.kind === 'extra' && o.owner === MATCH_OWNER && low(o.id) === id);
    if (!extra) {
      this.answers.push({ id, winner: this.taken.get(id) ?? NO_SLOT });
      return world;
    }
    const ship = world.ships.find((s) => s.slot === claimer && s.respawnIn === 0);
    const reach = RULES.extras.pickupRadius + SHIP_RADIUS + CLAIM_SLACK;
    const near = ship !== undefined && (ship.pos.x - extra.pos.x) ** 2 + (ship.pos.y - extra.pos.y) ** 2 + (ship.pos.z - extra.pos.z) ** 2 <= reach * reach;
    if (!near) {
      this.answers.push({ id, winner: NO_SLOT });
      return world;
    }
    this.remember(id, claimer);
    this.answers.push({ id, winner: claimer });
    return { ...world, objects: world.objects.filter((o) => o !== extra) };
  }

  /** Claimer: we took extra `id` of the authority in slot `owner`, of `type`; the claim goes out. */
  claimed(owner: number, id: number, type: number): ExtraClaim {
    if (this.pending.size >= MEMORY) this.pending.delete(this.pending.keys().next().value as string);
    this.pending.set(`${owner}:${low(id)}`, type);
    return { owner, id: low(id) };
  }

  /**
   * Claimer: the authority in slot `owner` says extra `id` went to `winner`.
   * If we had claimed it and lost, our ship (slot `local`) gives back what the
   * pickup gave. Returns the world after it.
   */
  onAnswer(world: World, owner: number, id: number, winner: number, local: number): World {
    const key = `${owner}:${low(id)}`;
    const type = this.pending.get(key);
    if (type === undefined) return world;
    this.pending.delete(key);
    if (winner === local) return world;
    const ships = world.ships.map((s) => (s.slot === local ? undoExtra(s, type) : s));
    return { ...world, ships };
  }

  /** A new match, or another game: nothing carries over. */
  clear(): void {
    this.taken.clear();
    this.answers = [];
    this.pending.clear();
  }

  private remember(id: number, winner: number): void {
    if (this.taken.size >= MEMORY) this.taken.delete(this.taken.keys().next().value as number);
    this.taken.set(id, winner);
  }
}
