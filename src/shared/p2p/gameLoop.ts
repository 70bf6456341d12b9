/**
 * The connected state ("game loop" as far as networking goes): answering
 * connect requests after rank × wait unless another peer's answer is snooped
 * first, keeping the table in step with what the others send, alive
 * counters and node-alive packets. Entering the state (as temporary master
 * or from an assignment) is here too.
 */
import { MAX_SLOTS, NO_SLOT, PacketType, type Packet, type PlayerEntry, type WireAddr } from '../wire/types';
import type { PeerCore } from './core';
import { applyClaim, type Claim } from './membership';
import { settleNames, startNames } from './names';
import { disconnectReason, gameFullMessage, identityEvents, nameOf, playerListEvent, playersOf, queueEvent, queueOf } from './packets';
import { planAssignment, toPlayer, UNKNOWN_NAME, type AssignmentPlan } from './slotTable';

/** A name/keepalive NodeAlive goes out at least this many alive intervals apart even while GameStates flow. */
const JOINED_REFRESH_INTERVALS = 4;

function validSlot(slot: number): boolean {
  return Number.isInteger(slot) && slot >= 0 && slot < MAX_SLOTS;
}

/** Sends NodeAlive (our header: slot and joined flag, plus our name) to every member. */
export function sendAliveToAll(core: PeerCore, now: number): void {
  core.sendToMembers(core.packet(PacketType.NodeAlive, identityEvents(core.name, core.look)));
  core.lastToAllAt = now;
  core.lastAliveAt = now;
}

/**
 * Renames us if another player holds our name with a better claim (names.ts):
 * tells the owner and sends every member a NodeAlive with the new name at
 * once. Returns whether it renamed us.
 */
export function settleOwnName(core: PeerCore, now: number): boolean {
  const renamed = settleNames(core, now);
  if (!renamed) return false;
  core.emit({ kind: 'renamed', ...renamed });
  sendAliveToAll(core, now);
  return true;
}

/**
 * Tells the nodes of `plan` their outcome. One ConnectReply (full table +
 * the answered nodes as connectQueue) goes to every member: that reaches the
 * assignees and doubles as the copy that lets the other peers snoop the
 * answer and update their tables. Nodes that did not fit get GameFull, also
 * copied to the members so nobody else answers them again.
 */
function sendAnswer(core: PeerCore, plan: AssignmentPlan, now: number): void {
  const answered = [...plan.kept, ...plan.added.map((a) => a.addr)];
  const list = playerListEvent(core.table.toPlayers());
  if (answered.length > 0) {
    core.sendToMembers(core.packet(PacketType.ConnectReply, [list, queueEvent(answered)]));
    core.lastToAllAt = now;
  }
  if (plan.full.length > 0) {
    const full = core.packet(PacketType.GameFull, [list, queueEvent(plan.full)]);
    for (const addr of plan.full) core.send(addr, full);
    core.sendToMembers(full);
  }
  for (const addr of [...answered, ...plan.full]) core.answeredAt.set(core.keyOf(addr), now);
  // Until the node shows up with a slot we keep telling it: a lost answer must not turn it into a lone game of its own.
  const nextAt = now + core.cfg.connectRequestIntervalMs;
  for (const addr of answered) core.unacked.set(core.keyOf(addr), { addr, kind: 'reply', nextAt, until: now + core.cfg.startupWindowMs + core.cfg.slaveTimeoutMs });
  for (const addr of plan.full) core.unacked.set(core.keyOf(addr), { addr, kind: 'full', nextAt, until: now + core.cfg.startupWindowMs });
}

/** Re-sends answers that have not been acknowledged yet, to their node alone. */
function resendAnswers(core: PeerCore, now: number): void {
  if (core.unacked.size === 0) return;
  for (const [key, u] of [...core.unacked]) {
    if (u.nextAt > now) continue;
    const inTable = core.table.has(key);
    if (now >= u.until || (u.kind === 'reply') !== inTable) {
      core.unacked.delete(key);
      continue;
    }
    const type = u.kind === 'reply' ? PacketType.ConnectReply : PacketType.GameFull;
    core.send(u.addr, core.packet(type, [playerListEvent(core.table.toPlayers()), queueEvent([u.addr])]));
    u.nextAt = now + core.cfg.connectRequestIntervalMs;
  }
}

/** Assigns slots to `addrs` from our table (lowest free, members keep theirs) and answers. */
function answerNow(core: PeerCore, addrs: Iterable<WireAddr>, now: number): void {
  const plan = planAssignment(core.table, admissible(core, addrs, now), core.cfg.maxPlayers);
  for (const { addr, slot } of plan.added) core.addPlayer(addr, slot, null, false, now);
  sendAnswer(core, plan, now);
}

/**
 * While we are still looking for a game, a node nearby is busy proving
 * addresses with us (its challenge came `rttMs` after our broadcast, or
 * null: unknown): the handshake and the answer after it take about two
 * round trips more, so the end of our start-up window moves on by that (at
 * most maxPlayers times a run, so forged challenges cannot hold it open).
 */
export function handshaking(core: PeerCore, now: number, rttMs: number | null): void {
  const rtt = rttMs ?? core.cfg.connectRequestIntervalMs;
  extendStartup(core, now, 2 * rtt + core.cfg.connectRequestIntervalMs + core.cfg.replyWaitIntervalMs);
}

function extendStartup(core: PeerCore, now: number, byMs: number): void {
  const run = core.run;
  if (!run || core.state !== 'connecting' || run.extensions >= core.cfg.maxPlayers || now + byMs <= run.endsAt) return;
  run.extensions += 1;
  run.endsAt = now + byMs;
}

/**
 * The nodes of a request that may be given a slot now: those that proved
 * their address. A queue may name any address, and a request can arrive
 * before our side of the handshake is done: the others wait (until the
 * start-up window and slave timeout have passed) for `provenNow`.
 */
function admissible(core: PeerCore, addrs: Iterable<WireAddr>, now: number): WireAddr[] {
  const out: WireAddr[] = [];
  for (const a of addrs) {
    if (core.proven(a)) out.push(a);
    else core.deferred.set(core.keyOf(a), { addr: a, until: now + core.cfg.startupWindowMs + core.cfg.slaveTimeoutMs });
  }
  return out;
}

/** A node has just proven its address: if a request of its waited for that, it is answered now. */
export function provenNow(core: PeerCore, addr: WireAddr, now: number): void {
  const key = core.keyOf(addr);
  // A node nearby has just finished its handshake with us: our request to it goes now; give its answer (and one resend) time before we start a game alone.
  extendStartup(core, now, 2 * core.cfg.connectRequestIntervalMs + core.cfg.replyWaitIntervalMs);
  const waiting = core.deferred.get(key);
  if (!waiting) return;
  core.deferred.delete(key);
  if (now <= waiting.until && core.state === 'connected' && !core.table.has(key)) answerNow(core, [waiting.addr], now);
}

/**
 * End of a connect loop nobody of higher status interrupted: take slot 0,
 * give the queued nodes the next slots (highest address first), answer them
 * and enter the game loop. The 'connected' notice lists the whole new table.
 */
export function becomeMaster(core: PeerCore, now: number): void {
  const queue = admissible(core, [...(core.run?.queue.values() ?? [])].filter((a) => core.keyOf(a) !== core.selfKey), now);
  core.run = null;
  core.table.clear();
  core.table.add({ ...core.selfEntry(0), key: core.selfKey, lastHeard: now });
  const plan = planAssignment(core.table, queue, core.cfg.maxPlayers);
  for (const { addr, slot } of plan.added) {
    const key = core.keyOf(addr);
    core.tombstones.delete(key);
    core.table.add({ slot, addr, name: core.nameFor(key), joined: false, key, lastHeard: now });
  }
  core.mySlot = 0;
  core.state = 'connected';
  core.lastAliveAt = now;
  // Everyone in this table starts with us; slot 0 keeps its name against all of them.
  startNames(core, new Set(plan.added.map((a) => core.keyOf(a.addr))), now);
  core.emit({ kind: 'connected', slot: 0, players: core.table.toPlayers() });
  sendAnswer(core, plan, now);
  core.lastToAllAt = now;
}

/**
 * Enters the game loop with a table someone assigned to us (`players`
 * contains us; `answered` are the nodes that answer gave slots to, us
 * among them). Malformed rows (a slot or address twice) are skipped. If a
 * player already there has our name we take another (names.ts). Sends a
 * NodeAlive to everyone at once: it announces our name and, should the copy
 * of our assignment have been lost somewhere, lets that peer learn of us
 * directly.
 */
export function adoptTable(core: PeerCore, players: readonly PlayerEntry[], answered: readonly WireAddr[], now: number): void {
  const mine = players.find((p) => core.keyOf(p.addr) === core.selfKey);
  if (!mine || !validSlot(mine.slot)) return;
  core.run = null;
  core.table.clear();
  core.table.add({ ...core.selfEntry(mine.slot), key: core.selfKey, lastHeard: now });
  for (const p of players) {
    const key = core.keyOf(p.addr);
    if (key === core.selfKey || !validSlot(p.slot) || core.table.has(key) || core.table.atSlot(p.slot)) continue;
    if (p.name !== UNKNOWN_NAME) core.names.set(key, p.name);
    core.tombstones.delete(key);
    core.table.add({ slot: p.slot, addr: p.addr, name: core.nameFor(key), joined: p.joined, key, lastHeard: now });
  }
  core.mySlot = mine.slot;
  core.state = 'connected';
  startNames(core, new Set(answered.map(core.keyOf)), now);
  core.emit({ kind: 'connected', slot: mine.slot, players: core.table.toPlayers() });
  const renamed = settleNames(core, now);
  if (renamed) core.emit({ kind: 'renamed', ...renamed });
  sendAliveToAll(core, now);
}

/** Queues an answer for `requester` (and its connect queue) due at `deadline`; an earlier deadline wins. */
function schedule(core: PeerCore, requester: WireAddr, addrs: readonly WireAddr[], deadline: number): void {
  const key = core.keyOf(requester);
  let p = core.pending.get(key);
  if (!p) {
    p = { requester, addrs: new Map(), deadline };
    core.pending.set(key, p);
  } else if (deadline < p.deadline) {
    p.deadline = deadline;
  }
  for (const a of [requester, ...addrs]) {
    const k = core.keyOf(a);
    if (k !== core.selfKey) p.addrs.set(k, a);
  }
}

/** Another peer answered these nodes: we need not (the snooping of the 1998 design). */
function snoop(core: PeerCore, answered: readonly WireAddr[], now: number): void {
  if (answered.length === 0) return;
  const keys = answered.map(core.keyOf);
  for (const k of keys) core.answeredAt.set(k, now);
  for (const [k, p] of core.pending) {
    for (const a of keys) p.addrs.delete(a);
    if (p.addrs.size === 0) core.pending.delete(k);
  }
}

function flushAnswers(core: PeerCore, now: number): void {
  if (core.pending.size === 0) return;
  for (const [k, p] of [...core.pending]) {
    if (p.deadline > now) continue;
    core.pending.delete(k);
    answerNow(core, p.addrs.values(), now);
  }
}

/**
 * Handles a packet in the connected state (duplicates already dropped by its
 * connection; `fresh` = the newest number from its sender). Returns the claim that cost us our
 * slot (a higher node proved it holds it), or null.
 */
export function connectedReceive(core: PeerCore, from: WireAddr, key: string, packet: Packet, fresh: boolean, now: number): Claim | null {
  const h = packet.header;
  const member = core.table.byAddrKey(key);
  // Any packet from a member that is not a duplicate proves it is alive.
  if (member) member.lastHeard = now;
  // A slot in its header means the node has taken an answer (ours or a copy of another's).
  if (h.senderSlot !== NO_SLOT) core.unacked.delete(key);
  // The joined flag of an overtaken packet may be outdated; its slot is not.
  const direct: Claim = { addr: from, slot: h.senderSlot, name: nameOf(packet), joined: fresh ? h.joined : null, direct: true, fresh: false };
  switch (h.type) {
    case PacketType.GameState:
    case PacketType.NodeAlive: {
      if (!validSlot(h.senderSlot)) return null;
      if (applyClaim(core, direct, now) === 'lost-own-slot') return direct;
      if (h.type === PacketType.GameState && core.table.atSlot(h.senderSlot)?.key === key) {
        core.taken.push({ slot: h.senderSlot, packet });
      }
      return null;
    }
    case PacketType.ConnectRequest: {
      // A node that lost a slot conflict sends what it knew; settle that before assigning.
      for (const p of playersOf(packet) ?? []) applyClaim(core, { addr: p.addr, slot: p.slot, name: p.name, joined: p.joined, direct: false, fresh: false }, now);
      // An answer seen less than one reply-wait ago overtook this very request on the way: it is answered already.
      const answered = core.answeredAt.get(key);
      if (answered !== undefined && now - answered < core.cfg.replyWaitIntervalMs) return null;
      const rank = Math.max(0, core.table.rankOf(core.selfKey));
      schedule(core, from, queueOf(packet), now + rank * core.cfg.replyWaitIntervalMs);
      flushAnswers(core, now);
      return null;
    }
    case PacketType.SlotRequest: {
      // Addressed to us alone (we were, or were about to become, this node's master): nobody else will answer it.
      schedule(core, from, queueOf(packet), now);
      flushAnswers(core, now);
      return null;
    }
    case PacketType.ConnectReply:
    case PacketType.GameFull: {
      const answered = queueOf(packet);
      if (core.table.size === 1 && answered.some((a) => core.keyOf(a) === core.selfKey)) {
        // We started a game alone because every answer to our requests was lost; nobody depends on it, so take the real answer.
        const players = playersOf(packet) ?? [];
        if (h.type === PacketType.GameFull) core.fail('game-full', gameFullMessage(players.length));
        else adoptTable(core, players, answered, now);
        return null;
      }
      // An overtaken answer's header may show a slot its sender has since given up: only the newest counts as a claim.
      if (fresh && validSlot(h.senderSlot) && applyClaim(core, direct, now) === 'lost-own-slot') return direct;
      snoop(core, answered, now);
      if (h.type === PacketType.ConnectReply) {
        const fresh = new Set(answered.map(core.keyOf));
        for (const p of playersOf(packet) ?? []) {
          applyClaim(core, { addr: p.addr, slot: p.slot, name: p.name, joined: p.joined, direct: false, fresh: fresh.has(core.keyOf(p.addr)) }, now);
        }
      }
      return null;
    }
    case PacketType.Disconnect:
      core.removePlayer(key, 'disconnect', now, disconnectReason(packet));
      return null;
    default:
      // SubdueSlave is for starting nodes; a connected peer has no master.
      return null;
  }
}

/** Timers of the connected state: due answers, alive counters, node-alive, housekeeping. */
export function connectedTick(core: PeerCore, now: number): void {
  const silent: string[] = [];
  for (const e of core.table.rows()) if (e.key !== core.selfKey && now - e.lastHeard >= core.cfg.aliveTimeoutMs) silent.push(e.key);
  for (const key of silent) core.removePlayer(key, 'timeout', now);
  flushAnswers(core, now);
  resendAnswers(core, now);
  settleOwnName(core, now);
  const quiet = now - core.lastToAllAt >= core.cfg.aliveIntervalMs;
  const refresh = now - core.lastAliveAt >= JOINED_REFRESH_INTERVALS * core.cfg.aliveIntervalMs;
  if (quiet || refresh) sendAliveToAll(core, now);
  for (const [k, until] of core.tombstones) if (now >= until) core.tombstones.delete(k);
  for (const [k, at] of core.lastEvidenceAt) if (now - at > core.cfg.aliveIntervalMs) core.lastEvidenceAt.delete(k);
  for (const [k, at] of core.answeredAt) if (now - at > core.cfg.aliveIntervalMs) core.answeredAt.delete(k);
  for (const [k, d] of core.deferred) if (now > d.until) core.deferred.delete(k);
}

/** The table we knew, with `winner` in the slot we lost: what we tell the peers when we ask again. */
export function knowledgeAfterLoss(core: PeerCore, winner: Claim): PlayerEntry[] {
  const wk = core.keyOf(winner.addr);
  const out = core.table
    .entries()
    .filter((e) => e.key !== core.selfKey && e.key !== wk && e.slot !== winner.slot)
    .map(toPlayer);
  out.push({ slot: winner.slot, addr: winner.addr, name: winner.name ?? core.nameFor(wk), joined: winner.joined ?? false });
  return out.sort((a, b) => a.slot - b.slot);
}
