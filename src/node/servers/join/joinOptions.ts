/**
 * The join server's options and what the servers see of it (joinServer.ts):
 * a seated player, the hooks a server plugs in, the running join server, and
 * the checks the options get before anything listens (the server name, the
 * player count and the welcome lines).
 */
import { formatJoinAccepted, MESSAGE_LINES, parseServerLine } from '../../../shared/servers/joinProtocol';
import { isMessageLine, isServerName } from '../../../shared/servers/joinFields';
import type { CommonServerOptions } from '../common/types';

/** One joined player as status pages, hooks and the CLI see it. */
export interface SeatedPlayer {
  slot: number;
  name: string;
  /** TCP peer address. */
  address: string;
  /** UDP game port from the join (6526 unless the client said otherwise). */
  port: number;
  /** Source port of the TCP connection it joined on. */
  tcpPort: number;
  os: string;
  /** Date.now() at join. */
  joinedAt: number;
}

/** What a server plugs into the shared join handling. Hooks must not throw (a throw is logged and ignored). */
export interface JoinHooks {
  /**
   * A player has its seat; runs before the accept line is sent. Returns the gameserver's accept fields, if any.
   * `ticket`: the jump ticket its join line carried, which `admit` let through.
   */
  joined?(player: SeatedPlayer, ticket?: string): { udp?: number; token?: number; time?: number } | undefined;
  /**
   * A join line carrying a jump ticket (a universe's arrival): null lets it join, else why not (the line
   * `jump refused: <why>` answers it and the connection closes). Without this hook every ticket is refused.
   */
  admit?(ticket: string, name: string, address: string): string | null;
  /** A seated player left (`remove me`, dropped connection, kick); not called for the players close() removes. */
  left?(player: SeatedPlayer, why: string): void;
  /** A seated player's new name was accepted (`my new name:`) and told to the others; `player` carries it. */
  renamed?(player: SeatedPlayer, oldName: string): void;
  /**
   * A spectator has its seat (`slot`: its spectator number); runs before the accept line. Returns its UDP port and
   * session token. A server without this hook has no spectator seats: a spectate line is an invalid request.
   */
  spectatorJoined?(spectator: SeatedPlayer): { udp: number; token: number } | undefined;
  /** A spectator left (`remove me`, dropped connection, kick). */
  spectatorLeft?(spectator: SeatedPlayer, why: string): void;
  /**
   * Whether the players in slots `a` and `b` play one game, so each is on the other's client list (a
   * gameserver's solar systems, galaxyRooms.ts); absent: everyone plays one game.
   */
  together?(a: number, b: number): boolean;
  /** Whether spectator `n` watches the game of the player in `slot` (its solar system), so it hears of that player; absent: it watches everyone. */
  watches?(n: number, slot: number): boolean;
}

/** Options of `startJoinServer` (joinServer.ts). */
export interface JoinServerOptions extends CommonServerOptions {
  /** `slotserver` or `gameserver`: names errors and log lines. */
  kind: string;
  /** TCP port; 0 = any free port. */
  port: number;
  /** Seats 0..maxPlayers-1, 1..`slotLimit`. */
  maxPlayers: number;
  slotLimit: number;
  /** Up to four message lines sent after every accepted join; fewer are padded with empty lines. */
  welcome: string[];
  /** Ban file (see banList.ts); re-read when it changes (polled every `banPollMs`, default 1000) and on reloadBans(). */
  banFile?: string;
  banPollMs?: number;
  /** Seats one host (IPv4 address or IPv6 /64) may hold at once (default {@link DEFAULT_MAX_PER_ADDRESS}). */
  maxPerAddress?: number;
  /** Called after every join and leave with the new player count (not for the players dropped by close()). */
  onPlayersChanged?(count: number, max: number): void;
  /** Time an unjoined connection may stay open (default 30 s). */
  joinTimeoutMs?: number;
  /** Spectator seats, apart from the players' (default {@link DEFAULT_MAX_SPECTATORS}; 0: none). */
  maxSpectators?: number;
  hooks?: JoinHooks;
}

/** A running join server. */
export interface JoinServer {
  /** The TCP port actually bound. */
  readonly port: number;
  playerCount(): number;
  /** Joined players by slot (copies). */
  players(): SeatedPlayer[];
  /** Spectators by their number (copies; `slot` is the spectator's number). */
  spectators(): SeatedPlayer[];
  /**
   * The player in `slot` moved to another game of the server (a jump between solar systems): the players it
   * was with (`before`, slots) and is no longer with get `remove` lines for it (1.1 clients read `reason`)
   * and it gets theirs (reading `theirReason`); those it is with now and was not get `add` lines (and ship
   * looks) both ways. Spectators who watched it (`watchedBefore`, their numbers) and no longer do get its
   * `remove` line; those who watch it now and did not, its `add` line (and look).
   */
  regroup(slot: number, before: ReadonlySet<number>, reason: string, theirReason: string, watchedBefore?: ReadonlySet<number>): void;
  /** Removes spectator `n` like a dropped connection, telling it why with `tell`. */
  kickSpectator(n: number, why: string, tell?: boolean): void;
  /**
   * Removes a seated player like a dropped connection (the others get `remove ip:`), telling it `removing you` first;
   * with `tell`, a text line with `why` goes before it, so the player learns the reason. The other (1.1)
   * players read `othersRead` as the reason it left (default `removed: <why>`; a silent player `timed out`).
   */
  kick(slot: number, why: string, tell?: boolean, othersRead?: string): void;
  /**
   * Frees a seat whose player did not prove its UDP endpoint in time (the server judges that): tells it
   * `removed: <why>`, closes the connection and strikes its host. A host with UNPROVED_STRIKES.limit unproved
   * seats (fading over UNPROVED_STRIKES.windowMs) has its further joins refused with `server full` until they fade.
   */
  unproved(slot: number, why: string): void;
  /** Reads the ban file again now (SIGHUP); removes seated players it bans. Resolves at once without a ban file. */
  reloadBans(why?: string): Promise<void>;
  /** Connections closed or refused by reason (`invalid-requests`, `line-too-long`, `rate-limited`, …) since start. */
  counters(): Record<string, number>;
  /** Says `removing you` to every connection (after `server closing: <reason>`, given a reason) and closes them and the listener. */
  close(reason?: string): Promise<void>;
}

/** Spectator seats of a game- or netgame server unless `--max-spectators` says otherwise. */
export const DEFAULT_MAX_SPECTATORS = 32;

/** Seats one host may hold by default: a LAN party of 8 behind one public address still plays. */
export const DEFAULT_MAX_PER_ADDRESS = 8;

/** Time a new seat has to prove its UDP endpoint (the first valid datagram, or a slotserver's time-sync request) before it is freed. */
export const DEFAULT_PROVE_UDP_MS = 5000;

/** Unproved seats of one host, fading over a minute, after which its joins are refused until they fade. */
export const UNPROVED_STRIKES = { limit: 3, windowMs: 60_000 };

/** `proveUdpMs` checked (default {@link DEFAULT_PROVE_UDP_MS}; 0 = never); throws one clear line. */
export function proveUdpMsOf(kind: string, ms: number | undefined): number {
  const v = ms ?? DEFAULT_PROVE_UDP_MS;
  if (!Number.isFinite(v) || v < 0) throw new Error(`${kind}: proveUdpMs must be ≥ 0`);
  return v;
}

/** The per-host seat limit of slot- and netgame servers: all seats but one, so one host cannot fill the server alone. */
export const allButOneSeat = (maxPlayers: number): number => Math.max(1, maxPlayers - 1);

/** Throws one clear line for a bad option; returns the welcome lines padded to four. */
export function checkJoinOptions(options: { kind: string; name: string; maxPlayers: number; slotLimit: number; welcome: string[]; maxPerAddress?: number }): string[] {
  const { kind, name, maxPlayers } = options;
  let nameOk = isServerName(name);
  try {
    formatJoinAccepted({ name: 'x', slot: 0, serverName: name });
  } catch {
    nameOk = false;
  }
  if (!nameOk) throw new Error(`${kind}: the server name must be 1..31 printable ASCII characters (got ${JSON.stringify(name)})`);
  if (!Number.isInteger(maxPlayers) || maxPlayers < 1 || maxPlayers > options.slotLimit) throw new Error(`${kind}: maxPlayers must be 1..${options.slotLimit}`);
  const perAddress = options.maxPerAddress;
  if (perAddress !== undefined && (!Number.isInteger(perAddress) || perAddress < 1)) throw new Error(`${kind}: maxPerAddress must be an integer ≥ 1`);
  if (options.welcome.length > MESSAGE_LINES) throw new Error(`${kind}: at most ${MESSAGE_LINES} welcome lines`);
  // A message that reads like a protocol line would mislead any client that does not count lines.
  const bad = options.welcome.find((l) => !isMessageLine(l) || parseServerLine(l).kind !== 'text');
  if (bad !== undefined) {
    throw new Error(`${kind}: a welcome line must be ≤ 160 UTF-8 bytes without control characters and not look like a protocol line: ${JSON.stringify(bad)}`);
  }
  return [...options.welcome, ...Array<string>(MESSAGE_LINES - options.welcome.length).fill('')];
}
