/**
 * Where bench:gameserver's lost states went: every state the bench counts as
 * lost (a receiver never got it, nor anything newer from that sender) is
 * matched against what the clients and the server counted, and put in one
 * place:
 *
 * - lost on the link, server → client: other receivers got the state, so the
 *   server took it; the receiver is short of states the server says it
 *   relayed to it (the server's per-player `statesSent` minus the states the
 *   client read; its datagram figures and the gaps in the server's message
 *   ids to it are printed beside);
 * - not relayed to that receiver: filtered by distance (the server's
 *   `statesFiltered` for it);
 * - not relayed to anyone: dropped by the server, by the reason its drop
 *   counters give (`drops` of the status JSON), or lost on the link,
 *   client → server (datagrams the clients sent minus datagrams the server
 *   read, its `packetsIn`);
 * - the receiver's or the sender's seat was removed (the reason the server
 *   told it over TCP);
 * - unexplained: what none of these counters covers.
 *
 * A counter explains at most as many lost states as it counted. The
 * counters are read once the clients have gone quiet (every datagram
 * delivered or lost) and cover the whole run from the joins, so they can be
 * compared exactly; a counter covering more than the measured window can only
 * explain more than it should, never less, and it is printed beside.
 */

/** A state the bench counts as lost: `sender`'s state `id` never reached `receiver` (slots). */
export interface LostState {
  receiver: number;
  sender: number;
  id: number;
}

/** What one bench client counted over the whole run. */
export interface ClientTally {
  slot: number;
  name: string;
  /** Datagrams it sent to the server (every kind). */
  datagramsSent: number;
  /** Datagrams it received from the server (every kind). */
  datagramsReceived: number;
  /** Relayed player states it read. */
  statesReceived: number;
  /** Message ids of the server's datagrams to it that never arrived (gaps in the sequence). */
  idGaps: number;
  /** Why the server removed its seat (the line it said over TCP), or null while it is seated. */
  removed: string | null;
}

/** The part of the gameserver's status JSON (gameserverStatus.ts) the reconciliation reads. */
export interface ServerTally {
  maxPlayers: number;
  /** Every datagram the server read, whatever became of it. */
  packetsIn: number;
  /** Datagrams dropped, by reason (codec and server reasons). */
  drops: Record<string, number>;
  /** Events (not states) dropped, by reason. */
  eventDrops: Record<string, number>;
  /** Strikes against players, by kind (the rules guard's and the datagram checks'). */
  strikes: Record<string, number>;
  kicked: number;
  players: { slot: number; name: string; packetsIn: number; statesSent: number; statesPartial?: number; statesFiltered: number; datagramsSent: number }[];
}

/** The lost states by where they went, and the counters that say so. */
export interface Reconciliation {
  lost: number;
  linkDown: number;
  linkUp: number;
  filtered: number;
  /** Dropped by the server, by its reason. */
  dropped: Map<string, number>;
  /** A seat removed, by the reason the server gave. */
  removed: Map<string, number>;
  unexplained: number;
  /** The lines the bench prints. */
  lines: string[];
}

/** Removed seats whose reason is printed in full. */
const SEATS_LISTED = 3;

const count = (m: Map<string, number>, key: string, n = 1) => m.set(key, (m.get(key) ?? 0) + n);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const pct = (n: number, of: number) => `${((n / Math.max(1, of)) * 100).toFixed(2)} %`;
const listed = (m: Map<string, number> | Record<string, number>) =>
  (m instanceof Map ? [...m] : Object.entries(m))
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';

/**
 * Puts each of `lost` (out of `expected` states in the measured window) in
 * its place. `relayedToAnyone(sender, id)`: some bench client received it.
 */
export function reconcile(lost: readonly LostState[], expected: number, relayedToAnyone: (sender: number, id: number) => boolean, clients: readonly ClientTally[], server: ServerTally): Reconciliation {
  const bySlot = new Map(clients.map((c) => [c.slot, c]));
  const seated = new Map(server.players.map((p) => [p.slot, p]));
  // What each counter can still explain.
  const down = new Map<number, number>();
  const filtered = new Map<number, number>();
  for (const c of clients) {
    const p = seated.get(c.slot);
    if (!p) continue;
    down.set(c.slot, Math.max(0, p.statesSent - c.statesReceived));
    filtered.set(c.slot, p.statesFiltered);
  }
  const dropsLeft = new Map(Object.entries(server.drops).filter(([, v]) => v > 0));
  const sentUp = sum(clients.map((c) => c.datagramsSent));
  let upLeft = Math.max(0, sentUp - server.packetsIn);
  /** Where a state nobody got went (decided once per state; each receiver's loss of it goes there too). */
  const unrelayed = new Map<string, string>();
  const out: Reconciliation = { lost: lost.length, linkDown: 0, linkUp: 0, filtered: 0, dropped: new Map(), removed: new Map(), unexplained: 0, lines: [] };

  for (const l of lost) {
    const gone = bySlot.get(l.receiver)?.removed ?? bySlot.get(l.sender)?.removed ?? null;
    if (gone !== null) {
      // By the reason's head ("removed: dropped for bad data: 10 strikes within 10 s"); the details are listed per seat.
      count(out.removed, gone.replace(/ \(.*$/s, ''));
      continue;
    }
    if (relayedToAnyone(l.sender, l.id)) {
      const d = down.get(l.receiver) ?? 0;
      const f = filtered.get(l.receiver) ?? 0;
      if (d > 0) {
        down.set(l.receiver, d - 1);
        out.linkDown += 1;
      } else if (f > 0) {
        filtered.set(l.receiver, f - 1);
        out.filtered += 1;
      } else out.unexplained += 1;
      continue;
    }
    const key = `${l.sender}:${l.id}`;
    let where = unrelayed.get(key);
    if (where === undefined) {
      const reason = [...dropsLeft].find(([, v]) => v > 0)?.[0];
      if (reason !== undefined) {
        dropsLeft.set(reason, (dropsLeft.get(reason) as number) - 1);
        where = `drop:${reason}`;
      } else if (upLeft > 0) {
        upLeft -= 1;
        where = 'up';
      } else where = 'unexplained';
      unrelayed.set(key, where);
    }
    if (where === 'up') out.linkUp += 1;
    else if (where === 'unexplained') out.unexplained += 1;
    else count(out.dropped, where.slice('drop:'.length));
  }

  const live = clients.filter((c) => seated.has(c.slot));
  const relayed = sum(live.map((c) => seated.get(c.slot)?.statesSent ?? 0));
  const serverSent = sum(live.map((c) => seated.get(c.slot)?.datagramsSent ?? 0));
  const removedSeats = clients.filter((c) => c.removed !== null);
  out.lines.push(
    `  lost ${out.lost} of ${expected} states (${pct(out.lost, expected)}), reconciled with the server's counters (whole run, read once the clients were quiet):`,
    `    lost on the link, server → client: ${out.linkDown} (the server relayed ${relayed} states to the seated clients, they read ${sum(live.map((c) => c.statesReceived))}; ` +
      `datagrams: the server sent ${serverSent}, the clients got ${sum(live.map((c) => c.datagramsReceived))}, gaps in its message ids ${sum(live.map((c) => c.idGaps))})`,
    `    lost on the link, client → server: ${out.linkUp} (the clients sent ${sentUp} datagrams, the server read ${server.packetsIn})`,
    `    dropped by the server: ${out.dropped.size === 0 ? 0 : listed(out.dropped)} (its drop counters: ${listed(server.drops)}; events dropped: ${listed(server.eventDrops)})`,
    `    filtered by distance: ${out.filtered} (statesFiltered: ${sum(live.map((c) => seated.get(c.slot)?.statesFiltered ?? 0))})`,
    `    seat removed: ${out.removed.size === 0 ? 0 : listed(out.removed)} (${removedSeats.length} seat(s) removed; the server's kicked: ${server.kicked}; strikes: ${listed(server.strikes)})`,
    ...removedSeats.slice(0, SEATS_LISTED).map((c) => `      ${c.name}: ${c.removed}`),
    ...(removedSeats.length > SEATS_LISTED ? [`      and ${removedSeats.length - SEATS_LISTED} more`] : []),
    `    unexplained: ${out.unexplained} (${pct(out.unexplained, expected)})`,
  );
  return out;
}
