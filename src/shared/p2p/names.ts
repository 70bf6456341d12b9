/**
 * Unique names in a peer-to-peer game. There is no server to refuse a name
 * that is taken, so each peer watches its own name against the table and,
 * when another player holds it, renames itself: "pilot" becomes "pilot-2"
 * (the suffix is the slot + 1, so two players renaming at once never pick
 * the same name). Only a node's own name is ever changed, by that node.
 *
 * Who keeps a name (STATE-MACHINE.md, "Names"): the player who held it
 * first, as each peer sees it — a node entering a game yields to every
 * player already there (and they keep their names against it); nodes
 * entering in the same answer, or taking a name
 * within `aliveIntervalMs` of each other, are settled by slot (the lower
 * keeps it); and a clash that somehow outlives 2 × `aliveTimeoutMs` is
 * settled by slot too, so none lasts for ever.
 */
import { MAX_NAME_LENGTH, SMALL_GAME_SLOTS, type PlayerEntry } from '../wire/types';
import type { PeerCore } from './core';
import { toPlayer, UNKNOWN_NAME } from './slotTable';

/** When a peer first saw another row hold its current name; `name` null while the row's name is not known yet. */
export interface NameRecord {
  name: string | null;
  since: number;
}

/** Names are compared as the servers compare them: ignoring case. */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * The name a player in `slot` takes instead of `base`: `base-<slot+1>`
 * (then `-<slot+17>`, `-<slot+33>` … while `taken` says that one is held),
 * with `base` cut so the result stays within MAX_NAME_LENGTH and never ends
 * in a space. Deterministic: two peers with the same inputs pick the same.
 */
export function suffixedName(base: string, slot: number, taken: (name: string) => boolean): string {
  for (let k = slot + 1; ; k += SMALL_GAME_SLOTS) {
    const suffix = `-${k}`;
    const stem = base.slice(0, Math.max(1, MAX_NAME_LENGTH - suffix.length)).trimEnd() || 'player';
    const candidate = `${stem}${suffix}`.slice(0, MAX_NAME_LENGTH);
    if (!taken(candidate) || k > 10_000) return candidate;
  }
}

/**
 * Entering a game (as master or with an assigned table): we take our wanted
 * name now; rows in `batch` (nodes answered together with us) took theirs at
 * the same moment, every other row before us.
 */
export function startNames(core: PeerCore, batch: ReadonlySet<string>, now: number): void {
  core.name = core.wantedName;
  core.nameSince = now;
  core.nameSeen.clear();
  core.clashSince.clear();
  for (const e of core.table.rows()) {
    if (e.key === core.selfKey) continue;
    core.nameSeen.set(e.key, { name: known(e.name), since: batch.has(e.key) ? now : -Infinity });
  }
}

/** A rename we made: the new name, the one we wanted, and the player who holds that. */
export interface Rename {
  name: string;
  wanted: string;
  holder: PlayerEntry;
}

/**
 * Checks our name against the table (connected state) and renames us when
 * another player has the better claim to it. Returns the rename (the owner
 * tells the player and the others), or null. Call after entering, after
 * setName and on every tick.
 */
export function settleNames(core: PeerCore, now: number): Rename | null {
  const mine = core.mySlot;
  if (core.state !== 'connected' || mine === null) return null;
  const sameTimeMs = core.cfg.aliveIntervalMs;
  let yieldTo: PlayerEntry | null = null;
  for (const e of core.table.rows()) {
    if (e.key === core.selfKey) continue;
    const name = known(e.name);
    const seen = core.nameSeen.get(e.key);
    // A row that appeared after we entered came after us: its first name yields to ours (it sees us as there before it).
    // A later change of name dates from when we saw it.
    if (!seen) core.nameSeen.set(e.key, { name, since: Infinity });
    else if (seen.name === null) seen.name = name;
    else if (name !== null && !sameName(seen.name, name)) core.nameSeen.set(e.key, { name, since: now });
    if (name === null || !sameName(name, core.name)) {
      core.clashSince.delete(e.key);
      continue;
    }
    const since = core.nameSeen.get(e.key)?.since ?? now;
    const clashAt = core.clashSince.get(e.key) ?? now;
    core.clashSince.set(e.key, clashAt);
    const first = since < core.nameSince - sameTimeMs;
    const together = since <= core.nameSince + sameTimeMs && e.slot < mine;
    const stuck = now - clashAt >= 2 * core.cfg.aliveTimeoutMs && e.slot < mine;
    if ((first || together || stuck) && yieldTo === null) yieldTo = e;
  }
  for (const key of core.nameSeen.keys()) if (!core.table.has(key)) core.nameSeen.delete(key);
  for (const key of core.clashSince.keys()) if (!core.table.has(key)) core.clashSince.delete(key);
  if (!yieldTo) return null;
  const others = [...core.table.rows()].filter((e) => e.key !== core.selfKey).map((e) => e.name);
  const name = suffixedName(core.wantedName, mine, (n) => others.some((o) => sameName(o, n)));
  core.name = name;
  core.nameSince = now;
  core.clashSince.clear();
  const me = core.table.byAddrKey(core.selfKey);
  if (me) {
    me.name = name;
    core.emit({ kind: 'player-changed', player: toPlayer(me) });
  }
  return { name, wanted: core.wantedName, holder: toPlayer(yieldTo) };
}

function known(name: string): string | null {
  return name === UNKNOWN_NAME ? null : name;
}
