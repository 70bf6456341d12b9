/**
 * The TCP side shared by the slotserver and the gameserver (Parsec §2.3.2 and
 * §2.3.3 speak the same lines): seats, joins, renames, `remove me`, the
 * client-list updates, the ban list and the welcome lines. What a server adds
 * (the gameserver's UDP session) hangs off the hooks; the options and what
 * the servers see of it (seated players, hooks, the running join server) are
 * in joinOptions.ts.
 *
 * Choices the 1998 text leaves open:
 * - A join whose name another player already has (compared case-insensitively)
 *   is refused with `name already taken`, the reply Parsec defines for renames;
 *   the connection stays open so the client can try another name.
 * - A join from an endpoint (address + UDP port) that is already joined is
 *   refused with `you sent an invalid request`: client-list lines identify a
 *   player by endpoint, so two players on one endpoint could not be told apart.
 * - `server full`, `server version incompatible` and `you're banned from this
 *   server` close the connection after the reply; so does `removing you`.
 * - One host (an IPv4 address, or an IPv6 /64: addressKey.ts) holds at most
 *   `maxPerAddress` seats (gameserver default 8, a LAN party behind one
 *   public address; slot- and netgame servers all seats but one); one more
 *   join from it is refused with `server full` and closed.
 * - Joined connections have no idle timeout here: whether a seat is still used
 *   is a matter of UDP, which each server judges itself and acts on through
 *   {@link JoinServer.kick}; a connection that has not joined within
 *   `joinTimeoutMs` is closed.
 * - A seat whose player never proves its UDP endpoint within `proveUdpMs` of
 *   the join (each server judges it: a datagram with the token, a time-sync
 *   request from the address) is freed through {@link JoinServer.unproved},
 *   told why, and its host struck: 3 such seats within a minute refuse the
 *   host's joins until the strikes fade.
 * - The ban file is re-read when it changes and on {@link JoinServer.reloadBans}
 *   (banWatch.ts); a seated player whose address a new list bans is removed,
 *   told `removed: banned from this server`.
 * - Invalid lines are strikes (strikes.ts): an unjoined connection is closed
 *   after MAX_INVALID of them; a joined player is removed once its strikes
 *   (fading over a minute) reach JOINED_STRIKES; and an address whose
 *   connections keep sending them has every further unjoined connection
 *   closed at its first bad line until its score fades. Each such close is
 *   logged with its reason, at most once a minute per address.
 */
import { AUTO_LOOK, formatLook, sameLook, type ShipLook } from '../../../shared/wire/shipLook';
import { formatShipUpdate, parseMyShip, SHIP_LOOK_MINOR } from '../../../shared/servers/shipLines';
import { DEFAULT_CLIENT_PORT } from '../../../shared/net/packetApi';
import {
  BANNED,
  formatJoinAccepted,
  formatNameUpdate,
  LEAVE_REASON_MINOR,
  formatServerClosing,
  INVALID_REQUEST,
  JUMP_REFUSED,
  MAX_LINE_BYTES,
  NAME_TAKEN,
  NEW_NAME_ACCEPTED,
  NOT_JOINED,
  parseClientLine,
  parseServerLine,
  REMOVING_YOU,
  SERVER_FULL,
  SPECTATORS_FULL,
  formatSpectateAccepted,
  type JoinRequest,
} from '../../../shared/servers/joinProtocol';
import { isIPv4, isIPv6, isMessageLine } from '../../../shared/servers/joinFields';
import { addressKey, PerAddress } from '../common/addressKey';
import { emptyBanList } from './banList';
import { watchBanList, type BanWatch } from './banWatch';
import { lineLimits } from '../common/connectionLimits';
import { checkJoinOptions, DEFAULT_MAX_PER_ADDRESS, DEFAULT_MAX_SPECTATORS, UNPROVED_STRIKES, type JoinServer, type JoinServerOptions, type SeatedPlayer } from './joinOptions';
import { startLineServer, type LineConnection } from '../common/lineServer';
import { addLine, ClientLists, endpointOf, type Seat } from './clientLists';
import { LogThrottle, StrikeBook, StrikeCounter } from '../common/strikes';

/** Per-connection state kept in `conn.state`. */
interface ConnState {
  seat?: Seat;
  /** Set once the connection has joined, so a second join is refused even after leaving. */
  joinedOnce: boolean;
  invalid: number;
  /** A joined player's strikes for invalid lines (created at its first). */
  strikes?: StrikeCounter;
  timer?: ReturnType<typeof setTimeout>;
}

/** Invalid lines an unjoined connection may send before it is dropped. */
const MAX_INVALID = 5;
/** A joined player's invalid lines, fading over a minute, that remove it (an honest client sends none). */
const JOINED_STRIKES = { limit: 10, windowMs: 60_000 };
/** Invalid lines from one address, over all its connections and fading over a minute, after which its unjoined connections get no second chance. */
const ADDRESS_STRIKES = { limit: 20, windowMs: 60_000 };

const NO_BANS = emptyBanList();
const stateOf = (conn: LineConnection) => conn.state as ConnState;

/**
 * Validates the options and starts listening. Rejects on a bad server name,
 * message line or player count, an unreadable ban file or a port in use.
 * Invalid ban-file lines are logged as warnings, not fatal.
 */
export async function startJoinServer(options: JoinServerOptions): Promise<JoinServer> {
  const { log, name, maxPlayers } = options;
  const hooks = options.hooks ?? {};
  const welcome = checkJoinOptions(options);
  const perAddress = new PerAddress(options.maxPerAddress ?? DEFAULT_MAX_PER_ADDRESS);
  // Spectator seats have the same share per host, apart from the players': one host cannot take them all.
  const watchersPerAddress = new PerAddress(perAddress.limit);
  let banWatch: BanWatch | undefined;
  if (options.banFile !== undefined) {
    banWatch = await watchBanList(options.banFile, { log, pollMs: options.banPollMs, onChange: () => kickBanned() });
  }
  const bans = () => banWatch?.list ?? NO_BANS;
  const joinTimeoutMs = options.joinTimeoutMs ?? 30_000;
  const seats: (Seat | undefined)[] = Array<Seat | undefined>(maxPlayers).fill(undefined);
  const maxSpectators = hooks.spectatorJoined ? (options.maxSpectators ?? DEFAULT_MAX_SPECTATORS) : 0;
  const watchers: (Seat | undefined)[] = Array<Seat | undefined>(maxSpectators).fill(undefined);
  const watching = () => watchers.filter((s): s is Seat => s !== undefined);
  let closing = false;
  const addressStrikes = new StrikeBook(ADDRESS_STRIKES);
  /** Seats freed unproved (no UDP in time), by host: enough of them refuse the host's joins until they fade. */
  const unprovedStrikes = new StrikeBook(UNPROVED_STRIKES);
  const counts = new Map<string, number>();
  const logs = new LogThrottle(60_000);
  // Routine lines have their own ration, so a flood of them cannot crowd out the warnings.
  const routineLogs = new LogThrottle(60_000);
  const tally = (reason: string) => counts.set(reason, (counts.get(reason) ?? 0) + 1);
  /** A log line about `address`, at most once a minute per address and reason (the rest are tallied only). */
  const warnOnce = (address: string, reason: string, fields: object, msg: string, level: 'warn' | 'info' = 'warn') => {
    tally(reason);
    logOnce(address, reason, fields, msg, level, logs);
  };
  /** The same rationing for routine lines (refusals, renames), which are not counted as closes. */
  const logOnce = (address: string, reason: string, fields: object, msg: string, level: 'warn' | 'info', throttle = routineLogs) => {
    const due = throttle.due(`${reason} ${address}`, Date.now());
    if (due) log[level]({ address, reason, heldBack: due.suppressed, ...fields }, msg);
  };

  const joined = () => seats.filter((s): s is Seat => s !== undefined);
  const guarded = <T>(what: string, run: () => T): T | undefined => {
    try {
      return run();
    } catch (err) {
      log.error({ err }, `${what} threw`);
      return undefined;
    }
  };
  // Who hears of whom: the add, remove, name and ship lines (clientLists.ts).
  const lists = new ClientLists(hooks, joined, watching, guarded);
  const changed = () => guarded('onPlayersChanged', () => options.onPlayersChanged?.(joined().length, maxPlayers));
  const nameTaken = (candidate: string, except?: Seat) =>
    [...joined(), ...watching()].some((s) => s !== except && s.player.name.toLowerCase() === candidate.toLowerCase());

  const refuse = (conn: LineConnection, reply: string, why: string, extra: object = {}, close = false) => {
    // Rationed per address and reason: a flood of refused lines must not become a flood of log lines.
    logOnce(conn.address, `refused: ${why}`, { reply, ...extra }, `refused: ${why}`, 'info');
    if (close) conn.close(reply);
    else conn.send(reply);
  };

  const join = (conn: LineConnection, st: ConnState, req: JoinRequest) => {
    const port = req.port ?? DEFAULT_CLIENT_PORT;
    const who = { player: req.name, os: req.os, port };
    if (st.joinedOnce) return invalid(conn, st, INVALID_REQUEST, `second join on one connection as ${req.name}`);
    if (req.spectate) return spectate(conn, st, req);
    // Node always reports an IP here; anything else could not be formatted into client-list lines.
    if (!isIPv4(conn.address) && !isIPv6(conn.address)) return refuse(conn, INVALID_REQUEST, 'peer address unknown', who, true);
    const slot = seats.findIndex((s) => s === undefined);
    if (slot < 0) return refuse(conn, SERVER_FULL, 'server full', who, true);
    if (perAddress.full(conn.address)) {
      // Logged once a minute per address: a squatter retrying must not flood the log.
      warnOnce(conn.address, 'address-seats', { ...who, limit: perAddress.limit }, 'refused: this address holds its share of seats', 'info');
      return conn.close(SERVER_FULL);
    }
    if (unprovedStrikes.score(addressKey(conn.address), Date.now()) > UNPROVED_STRIKES.limit - 1) {
      warnOnce(conn.address, 'unproved-seats', { ...who, limit: UNPROVED_STRIKES.limit }, 'refused: this address lately held seats it never played from', 'info');
      return conn.close(SERVER_FULL);
    }
    if (nameTaken(req.name)) return refuse(conn, NAME_TAKEN, 'name taken', who);
    if (joined().some((s) => s.player.address === conn.address && s.player.port === port)) {
      return refuse(conn, INVALID_REQUEST, 'endpoint already joined', who);
    }
    // A jump's arrival: its ticket decides (the gameserver checks it, jumpTicket.ts).
    const ticket = req.ticket;
    if (ticket !== undefined) {
      const admit = hooks.admit;
      const verdict = admit ? guarded('admit hook', () => admit(ticket, req.name, conn.address)) : 'this server takes no jump tickets';
      // undefined: the hook threw (logged); null: let in.
      const why = verdict === undefined ? 'the server could not check the ticket' : verdict;
      if (why !== null) return refuse(conn, `${JUMP_REFUSED}${why}`, 'jump ticket refused', { ...who, why }, true);
    }
    const player: SeatedPlayer = { slot, name: req.name, address: conn.address, port, tcpPort: conn.port, os: req.os, joinedAt: Date.now() };
    const seat: Seat = { player, conn, minor: Number(req.version.split('.')[1] ?? 0), look: AUTO_LOOK };
    seats[slot] = seat;
    perAddress.add(player.address);
    st.seat = seat;
    st.joinedOnce = true;
    clearTimeout(st.timer);
    const session = guarded('joined hook', () => hooks.joined?.({ ...player }, ticket));
    conn.send(formatJoinAccepted({ name: req.name, slot, serverName: name, ...session }));
    for (const line of welcome) conn.send(line);
    // The newcomer learns everyone already here (and their looks); everyone else learns the newcomer.
    for (const line of lists.listFor(seat)) conn.send(line);
    lists.toOthers(seat, addLine(seat));
    log.info({ slot, player: req.name, address: conn.address, port, os: req.os, version: req.version }, 'player joined');
    changed();
  };

  /** A spectate line: a seat apart from the players', hearing the client list (no `add` line for it to anyone). */
  const spectate = (conn: LineConnection, st: ConnState, req: JoinRequest) => {
    const port = req.port ?? DEFAULT_CLIENT_PORT;
    const who = { spectator: req.name, os: req.os, port };
    if (maxSpectators === 0) return refuse(conn, INVALID_REQUEST, 'spectate line (no spectator seats here)', who);
    if (!isIPv4(conn.address) && !isIPv6(conn.address)) return refuse(conn, INVALID_REQUEST, 'peer address unknown', who, true);
    const n = watchers.findIndex((s) => s === undefined);
    if (n < 0) return refuse(conn, SPECTATORS_FULL, 'spectators full', { ...who, limit: maxSpectators }, true);
    if (watchersPerAddress.full(conn.address)) return refuse(conn, SPECTATORS_FULL, 'this address holds its share of spectator seats', { ...who, limit: watchersPerAddress.limit }, true);
    if (nameTaken(req.name)) return refuse(conn, NAME_TAKEN, 'name taken', who);
    const player: SeatedPlayer = { slot: n, name: req.name, address: conn.address, port, tcpPort: conn.port, os: req.os, joinedAt: Date.now() };
    const seat: Seat = { player, conn, minor: Number(req.version.split('.')[1] ?? 0), look: AUTO_LOOK, spectator: true };
    const session = guarded('spectatorJoined hook', () => hooks.spectatorJoined?.({ ...player }));
    if (!session) return refuse(conn, INVALID_REQUEST, 'no spectator session', who, true);
    watchers[n] = seat;
    watchersPerAddress.add(player.address);
    st.seat = seat;
    st.joinedOnce = true;
    clearTimeout(st.timer);
    conn.send(formatSpectateAccepted({ name: req.name, serverName: name, ...session }));
    for (const line of welcome) conn.send(line);
    for (const line of lists.listFor(seat)) conn.send(line);
    log.info({ spectator: n, name: req.name, address: conn.address, port, os: req.os }, 'spectator joined');
  };

  /** `st`'s player leaves: `why` for the log, `told` for the other players (1.1 clients read it with the removal). */
  const leave = (st: ConnState, why: string, told: string) => {
    const seat = st.seat;
    if (!seat) return;
    if (seat.spectator) {
      st.seat = undefined;
      watchers[seat.player.slot] = undefined;
      watchersPerAddress.remove(seat.player.address);
      if (closing) return;
      guarded('spectatorLeft hook', () => hooks.spectatorLeft?.({ ...seat.player }, why));
      log.info({ spectator: seat.player.slot, name: seat.player.name, why }, 'spectator left');
      return;
    }
    st.seat = undefined;
    seats[seat.player.slot] = undefined;
    perAddress.remove(seat.player.address);
    if (closing) return;
    // Those who played with it, asked before the hook forgets where it played.
    const audience = lists.audienceOf(seat);
    guarded('left hook', () => hooks.left?.({ ...seat.player }, why));
    lists.left(seat, audience, told);
    log.info({ slot: seat.player.slot, player: seat.player.name, address: seat.player.address, port: seat.player.port, why }, 'player left');
    changed();
  };

  const rename = (conn: LineConnection, st: ConnState, newName: string) => {
    const seat = st.seat;
    if (!seat) return refuse(conn, NOT_JOINED, 'rename while not joined', { player: newName });
    if (nameTaken(newName, seat)) return refuse(conn, NAME_TAKEN, 'name taken', { slot: seat.player.slot, player: newName });
    const old = seat.player.name;
    seat.player.name = newName;
    conn.send(NEW_NAME_ACCEPTED);
    // A spectator is on nobody's client list: its new name is its own business.
    if (newName !== old && !seat.spectator) {
      lists.toOthers(seat, formatNameUpdate({ endpoint: endpointOf(seat.player), name: newName }));
      guarded('renamed hook', () => hooks.renamed?.({ ...seat.player }, old));
    }
    logOnce(conn.address, 'renamed', { slot: seat.player.slot, from: old, to: newName }, 'player renamed', 'info');
  };

  const chooseLook = (conn: LineConnection, st: ConnState, look: ShipLook) => {
    const seat = st.seat;
    if (!seat || seat.spectator) return refuse(conn, NOT_JOINED, 'ship look while not joined', {});
    if (sameLook(look, seat.look)) return;
    seat.look = look;
    const line = formatShipUpdate({ endpoint: endpointOf(seat.player), look });
    lists.toOthers(seat, line, SHIP_LOOK_MINOR);
    logOnce(conn.address, 'ship-look', { slot: seat.player.slot, look: formatLook(look) }, 'player chose a ship look', 'info');
  };

  /** An invalid line: reply, count strikes against the connection and its address, and close or remove it when they run out. */
  const invalid = (conn: LineConnection, st: ConnState, parsedReply: string, line: string) => {
    st.invalid += 1;
    const now = Date.now();
    const overAddress = addressStrikes.add(conn.address, 'invalid-request', line.slice(0, 40), now);
    const reply = st.joinedOnce ? INVALID_REQUEST : parsedReply;
    const seat = st.seat;
    if (seat) {
      st.strikes ??= new StrikeCounter(JOINED_STRIKES);
      const why = st.strikes.add('invalid-request', line.slice(0, 40), now);
      conn.send(reply);
      if (!why) return;
      // Removing a player is rare (it needs a join first) and always worth a line of its own.
      tally('invalid-requests');
      log.warn({ address: conn.address, slot: seat.player.slot, player: seat.player.name, reason: why }, 'player removed for repeated invalid requests');
      return kickSeat(seat, `removed for repeated invalid requests: ${why}`, true);
    }
    // A joined-once connection is never dropped for a bad line: any second join is just invalid.
    const tooMany = !st.joinedOnce && (st.invalid >= MAX_INVALID || overAddress !== null);
    if (tooMany) {
      warnOnce(conn.address, 'invalid-requests', { lines: st.invalid, why: overAddress ?? `${st.invalid} invalid lines on one connection` }, 'connection closed: repeated invalid requests');
      return conn.close(reply);
    }
    if (reply !== INVALID_REQUEST) return refuse(conn, reply, 'incompatible version', { line: line.slice(0, 80) }, !st.joinedOnce);
    // Not logged line by line: a flood of bad lines must not become a flood of log lines.
    log.debug({ address: conn.address, line: line.slice(0, 80) }, 'invalid request');
    conn.send(reply);
  };

  const kickSeat = (seat: Seat, why: string, tell: boolean, othersRead = `removed: ${why}`) => {
    leave(stateOf(seat.conn), why, othersRead);
    if (tell) {
      // A plain text line the client prints; control characters and length are trimmed so it stays one safe line.
      const text = `removed: ${why.replace(/[\x00-\x1f\x7f]/g, ' ')}`.slice(0, 150);
      if (isMessageLine(text) && parseServerLine(text).kind === 'text') seat.conn.send(text);
    }
    seat.conn.close(REMOVING_YOU);
  };

  /** After a ban-list change: everyone seated whose address it bans leaves, told why. */
  function kickBanned(): void {
    if (closing) return;
    for (const seat of [...joined(), ...watching()]) {
      if (!bans().isBanned(seat.player.address)) continue;
      tally('banned');
      log.warn({ slot: seat.player.slot, player: seat.player.name, address: seat.player.address }, 'player removed: address banned');
      kickSeat(seat, 'banned from this server', true);
    }
  }

  const lines = await startLineServer(
    {
      open(conn) {
        const st: ConnState = { joinedOnce: false, invalid: 0 };
        st.timer = setTimeout(() => {
          if (!st.joinedOnce) {
            warnOnce(conn.address, 'join-timeout', { ms: joinTimeoutMs }, 'connection closed: no join in time', 'info');
            conn.close();
          }
        }, joinTimeoutMs);
        st.timer.unref();
        conn.state = st;
      },
      line(conn, line) {
        const st = stateOf(conn);
        // A banned address gets its reply to whatever it sends first: replying
        // before the client has written could lose the line to a reset.
        if (bans().isBanned(conn.address)) return refuse(conn, BANNED, 'banned address', {}, true);
        const look = parseMyShip(line);
        if (look) return chooseLook(conn, st, look);
        const req = parseClientLine(line);
        switch (req.kind) {
          case 'join':
            return join(conn, st, req.join);
          case 'rename':
            return rename(conn, st, req.name);
          case 'remove':
            if (!st.seat) return refuse(conn, NOT_JOINED, 'remove while not joined');
            leave(st, 'remove me', req.reason ?? 'left');
            return conn.close(REMOVING_YOU);
          case 'refused':
            return invalid(conn, st, req.reply, line);
        }
      },
      close(conn, reason) {
        const st = stateOf(conn);
        clearTimeout(st.timer);
        leave(st, reason, 'lost connection');
      },
    },
    {
      port: options.port,
      ...(options.host === undefined ? {} : { host: options.host }),
      ...lineLimits(options.limits),
      maxLineBytes: MAX_LINE_BYTES,
      // 0 disables the line server's idle timeout; unjoined connections have their own deadline.
      idleMs: 0,
      count: (reason, address) => {
        if (reason === 'socket-error' || reason === 'idle-timeout') return tally(reason);
        warnOnce(address ?? '?', reason, {}, 'connection closed or refused by the line server');
      },
    },
  ).catch((err: unknown) => {
    banWatch?.close();
    throw err;
  });

  return {
    port: lines.port,
    playerCount: () => joined().length,
    players: () => joined().map((s) => ({ ...s.player })),
    spectators: () => watching().map((s) => ({ ...s.player })),
    regroup(slot, before, reason, theirReason, watchedBefore) {
      const mover = seats[slot];
      if (!mover || closing) return;
      lists.regroup(mover, before, reason, theirReason, watchedBefore);
    },
    kickSpectator(n, why, tell = false) {
      const seat = watchers[n];
      if (!seat || closing) return;
      kickSeat(seat, why, tell);
    },
    kick(slot, why, tell = false, othersRead) {
      const seat = seats[slot];
      if (!seat || closing) return;
      kickSeat(seat, why, tell, othersRead);
    },
    unproved(slot, why) {
      const seat = seats[slot];
      if (!seat || closing) return;
      unprovedStrikes.add(addressKey(seat.player.address), 'unproved-seat', why, Date.now());
      warnOnce(seat.player.address, 'unproved-seat', { slot, player: seat.player.name, why }, 'player removed: its UDP endpoint was never proved', 'info');
      kickSeat(seat, why, true, 'timed out');
    },
    reloadBans: (why = 'reload requested') => banWatch?.reload(why) ?? Promise.resolve(),
    counters: () => Object.fromEntries(counts),
    async close(reason?: string) {
      if (closing) return;
      closing = true;
      banWatch?.close();
      const why = reason === undefined ? null : formatServerClosing(reason);
      await lines.close((conn) => {
        // 1.1 clients hear why; a 1998 client would print the line as a message, so it gets only the 1998 goodbye.
        const seat = stateOf(conn).seat;
        if (why !== null && seat && seat.minor >= LEAVE_REASON_MINOR) conn.send(why);
        conn.send(REMOVING_YOU);
      });
      seats.fill(undefined);
      watchers.fill(undefined);
      watchersPerAddress.clear();
      perAddress.clear();
    },
  };
}
