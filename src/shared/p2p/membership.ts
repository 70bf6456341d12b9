/**
 * How a connected peer updates its slot table from what it hears: "claims"
 * that a node holds a slot, either direct (the node's own packet header) or
 * from a snapshot (a player list in another peer's ConnectReply). Also the
 * deterministic rule that settles two nodes claiming one slot.
 */
import { compareAddr } from '../wire/addr';
import { MAX_SLOTS, PacketType, type WireAddr } from '../wire/types';
import type { PeerCore } from './core';
import { identityEvents, playerListEvent, queueEvent } from './packets';
import { toPlayer } from './slotTable';

/** One statement "node `addr` holds `slot`". */
export interface Claim {
  addr: WireAddr;
  slot: number;
  /** Name carried with the claim, if any. */
  name: string | null;
  /** Joined flag carried with the claim (direct claims: the header flag). */
  joined: boolean | null;
  /** From the node itself (its packet header) rather than from someone's player list. */
  direct: boolean;
  /** Snapshot entry the sender has just assigned (listed in that reply's connectQueue). */
  fresh: boolean;
}

/** Result of a claim: `lost-own-slot` means a higher node proved it holds our slot. */
export type ClaimOutcome = 'ok' | 'lost-own-slot';

/** How long a row must have been silent (half the alive timeout) before a newer claim on its slot simply replaces it. */
export function silentAfterMs(core: PeerCore): number {
  return core.cfg.aliveTimeoutMs / 2;
}

function evidenceAllowed(core: PeerCore, key: string, now: number): boolean {
  const last = core.lastEvidenceAt.get(key);
  // Rate limit: one piece of evidence per target per reply-wait interval (at least 50 ms) keeps a conflict from flooding.
  if (last !== undefined && now - last < Math.max(50, core.cfg.replyWaitIntervalMs)) return false;
  core.lastEvidenceAt.set(key, now);
  return true;
}

/** Sends `to` a NodeAlive: our own header is direct evidence of the slot we hold. */
export function sendAliveTo(core: PeerCore, to: WireAddr): void {
  core.send(to, core.packet(PacketType.NodeAlive, identityEvents(core.name, core.look)));
}

/** Sends `to` our table as a ConnectReply that answers nobody (empty queue): a hint that it lost a slot conflict. */
export function sendSync(core: PeerCore, to: WireAddr, now: number): void {
  if (!evidenceAllowed(core, core.keyOf(to), now)) return;
  core.send(to, core.packet(PacketType.ConnectReply, [playerListEvent(core.table.toPlayers()), queueEvent([])]));
}

/**
 * Applies one claim to the table (connected state only). Rules, in order:
 * - a row already matching the claim is refreshed (direct claims only: alive
 *   counter, joined flag, name);
 * - our own slot claimed by someone else: a direct claim from a higher
 *   address means we lost it; anything else makes us send the claimant our
 *   own header as evidence, so a live rival settles the question directly;
 * - snapshots never move or re-add known nodes, nor revive recently removed
 *   ones (unless the snapshot's sender has just assigned them);
 * - a slot held by another row: if that row has been silent for
 *   silentAfterMs it is stale (its departure has not reached us) and yields;
 *   otherwise the higher address keeps the slot and the loser is sent our
 *   table so it learns;
 * - a direct claim of a known node at a new slot moves it (the node knows
 *   its own slot best).
 */
export function applyClaim(core: PeerCore, c: Claim, now: number): ClaimOutcome {
  const key = core.keyOf(c.addr);
  if (key === core.selfKey || !Number.isInteger(c.slot) || c.slot < 0 || c.slot >= MAX_SLOTS) return 'ok';
  const holder = core.table.atSlot(c.slot);
  if (holder && holder.key === key) {
    if (c.direct) refresh(core, key, c, now);
    return 'ok';
  }
  if (holder && holder.key === core.selfKey) {
    if (c.direct && compareAddr(c.addr, core.self) > 0) return 'lost-own-slot';
    if (evidenceAllowed(core, key, now)) sendAliveTo(core, c.addr);
    return 'ok';
  }
  const existing = core.table.byAddrKey(key);
  if (!c.direct && (existing || (core.tombstoned(key, now) && !c.fresh))) return 'ok';
  if (holder) {
    const silent = now - holder.lastHeard > silentAfterMs(core);
    if (!silent && compareAddr(holder.addr, c.addr) > 0) {
      sendSync(core, c.addr, now);
      return 'ok';
    }
    const loser = holder.addr;
    core.removePlayer(holder.key, silent ? 'timeout' : 'disconnect', now);
    if (!silent) sendSync(core, loser, now);
  }
  if (existing) {
    // Direct claim at another slot: the node moved (it lost a conflict and was given a new slot).
    core.table.remove(key);
    const moved = { ...existing, slot: c.slot, lastHeard: now };
    if (c.joined !== null) moved.joined = c.joined;
    if (c.name !== null) {
      moved.name = c.name;
      core.names.set(key, c.name);
    }
    core.table.add(moved);
    core.emit({ kind: 'player-changed', player: toPlayer(moved) });
    return 'ok';
  }
  core.addPlayer(c.addr, c.slot, c.name, c.joined ?? false, now);
  return 'ok';
}

/** Direct news from a row's own node: alive counter, joined flag, name. */
function refresh(core: PeerCore, key: string, c: Claim, now: number): void {
  const e = core.table.byAddrKey(key);
  if (!e) return;
  e.lastHeard = now;
  let changed = false;
  if (c.joined !== null && c.joined !== e.joined) {
    e.joined = c.joined;
    changed = true;
  }
  if (c.name !== null && c.name !== e.name) {
    e.name = c.name;
    core.names.set(key, c.name);
    changed = true;
  }
  if (changed) core.emit({ kind: 'player-changed', player: toPlayer(e) });
}
