/**
 * The start-up protocol: the connect loop (state 'connecting') and the
 * slot-request loop (state 'slave'). Conflicts between nodes starting at
 * the same time are settled by address (higher wins); requests a node holds
 * for others travel with it when it yields, so none gets lost.
 */
import { compareAddr } from '../wire/addr';
import { PacketType, type Packet, type PlayerEntry, type WireAddr } from '../wire/types';
import type { PeerCore } from './core';
import { adoptTable, becomeMaster } from './gameLoop';
import { formatAddr, gameFullMessage, identityEvents, playerListEvent, playersOf, queueEvent, queueOf } from './packets';

/**
 * Starts a run of the start-up protocol: fresh session, state 'connecting',
 * first ConnectRequest broadcast at once. `knowledge` is the table we knew
 * if we are asking again after losing a slot conflict (else empty).
 */
export function beginStartup(core: PeerCore, now: number, knowledge: PlayerEntry[]): void {
  core.resetSession();
  core.state = 'connecting';
  core.run = {
    startedAt: now,
    endsAt: now + core.cfg.startupWindowMs,
    extensions: 0,
    requestsSent: 0,
    nextRequestAt: now,
    queue: new Map(),
    knowledge,
    master: null,
    slaveSince: now,
    nextSlotRequestAt: now,
  };
  sendConnectRequest(core);
}

/** Broadcast ConnectRequest: our queue, our name and (after a lost conflict) what we knew. */
function sendConnectRequest(core: PeerCore): void {
  const run = core.run;
  if (!run) return;
  const events = [queueEvent([...run.queue.values()]), ...identityEvents(core.name, core.look)];
  if (run.knowledge.length > 0) events.push(playerListEvent(run.knowledge));
  core.broadcast(core.packet(PacketType.ConnectRequest, events));
  run.requestsSent++;
  run.nextRequestAt = run.startedAt + run.requestsSent * core.cfg.connectRequestIntervalMs;
}

/** SlotRequest to our master with our queue (forwarding it) and our name; schedules the next retry. */
function sendSlotRequest(core: PeerCore, now: number): void {
  const run = core.run;
  if (!run || !run.master) return;
  const mk = core.keyOf(run.master);
  const queue = [...run.queue.entries()].filter(([k]) => k !== mk).map(([, a]) => a);
  core.send(run.master, core.packet(PacketType.SlotRequest, [queueEvent(queue), ...identityEvents(core.name, core.look)]));
  run.nextSlotRequestAt = now + core.cfg.slotRequestIntervalMs;
}

/** Yields to `master` (enters or stays in the slot-request loop); the slave timer runs from the first yield. */
function becomeSlave(core: PeerCore, master: WireAddr, now: number): void {
  const run = core.run;
  if (!run) return;
  if (core.state !== 'slave') run.slaveSince = now;
  core.state = 'slave';
  run.master = master;
  sendSlotRequest(core, now);
}

/** Adds `addrs` (not us) to our queue; true if any was new. */
function enqueue(core: PeerCore, addrs: readonly WireAddr[]): boolean {
  const run = core.run;
  if (!run) return false;
  let grew = false;
  for (const a of addrs) {
    const k = core.keyOf(a);
    if (k === core.selfKey || run.queue.has(k)) continue;
    run.queue.set(k, a);
    grew = true;
  }
  return grew;
}

/** Handles a packet (not a duplicate) while 'connecting' or 'slave'. */
export function startupReceive(core: PeerCore, from: WireAddr, key: string, packet: Packet, now: number): void {
  const run = core.run;
  if (!run) return;
  const higherThanMe = compareAddr(from, core.self) > 0;
  const higherThanMaster = run.master === null || compareAddr(from, run.master) > 0;
  switch (packet.header.type) {
    case PacketType.ConnectRequest: {
      if (higherThanMe && (core.state === 'connecting' || higherThanMaster)) {
        // Implicit yield: a starting node of higher status exists. Our queue goes with our SlotRequest.
        becomeSlave(core, from, now);
      } else if (!higherThanMe) {
        // Lower status: hold its request (and the ones it holds) and tell it who is in charge here.
        const grew = enqueue(core, [from, ...queueOf(packet)]);
        core.send(from, core.packet(PacketType.SubdueSlave, []));
        if (grew && core.state === 'slave') sendSlotRequest(core, now);
      }
      return;
    }
    case PacketType.SubdueSlave:
      if (higherThanMe && (core.state === 'connecting' || higherThanMaster)) becomeSlave(core, from, now);
      return;
    case PacketType.SlotRequest: {
      // A node that yielded to us: hold it and its queue; a slave passes them on at once.
      const grew = enqueue(core, [from, ...queueOf(packet)]);
      if (grew && core.state === 'slave') sendSlotRequest(core, now);
      return;
    }
    case PacketType.ConnectReply: {
      // Any answer that lists us counts: it may come from our master, its master, or a running game.
      const players = playersOf(packet);
      if (players?.some((p) => core.keyOf(p.addr) === core.selfKey)) adoptTable(core, players, queueOf(packet), now);
      return;
    }
    case PacketType.GameFull: {
      if (!queueOf(packet).some((a) => core.keyOf(a) === core.selfKey)) return;
      const n = playersOf(packet)?.length ?? core.cfg.maxPlayers;
      core.fail('game-full', gameFullMessage(n));
      return;
    }
    case PacketType.Disconnect:
      run.queue.delete(key);
      return;
    default:
      return;
  }
}

/** Timers of the start-up: request repeats, the end of the window, slot-request retries, the slave timeout. */
export function startupTick(core: PeerCore, now: number): void {
  const run = core.run;
  if (!run) return;
  if (core.state === 'connecting') {
    // A window moved on for a handshake keeps the requests going (they reach proven nodes as tokened copies), so a lost one is repaired.
    if ((run.requestsSent < core.cfg.connectRequestRepeats || run.extensions > 0) && now >= run.nextRequestAt) sendConnectRequest(core);
    if (now >= run.endsAt) becomeMaster(core, now);
    return;
  }
  if (core.state !== 'slave') return;
  if (now - run.slaveSince >= core.cfg.slaveTimeoutMs) {
    const master = run.master ? formatAddr(run.master) : 'unknown';
    core.fail('slave-timeout', `no slot assigned: the starting game at ${master} stopped answering (gave up after ${core.cfg.slaveTimeoutMs} ms)`);
    return;
  }
  if (now >= run.nextSlotRequestAt) sendSlotRequest(core, now);
}
