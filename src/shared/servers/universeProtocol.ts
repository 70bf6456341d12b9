/**
 * The masterserver's universe extension (masterserver 1.2, issue 29): lines
 * a gameserver and its masterserver exchange on the registration connection
 * beside the 1998 ones, so the masterserver knows each server's solar
 * systems and gates, trusts only servers that prove the universe's key, and
 * routes a jump to the server that has its destination. Pure: parse and
 * format, strictly; every line read is untrusted (null for anything else).
 *
 * Masterserver → gameserver:
 *   universe challenge: <32 hex>                 after `join accepted`, from a masterserver with a universe key
 *   universe member                              the proof was right: this server may be a jump destination
 *   universe proof refused                       it was not (the server is listed, never a destination)
 *   route <ref>: host: <ip> port: <n> server: <name:port> epoch: <ms>   where a solar system is
 *   route <ref> refused: <text>                  no server of the universe has it (why)
 *   carry: <id> state: <sealed>                  a jumping ship's carried state, for this server
 *   carry <id> forwarded | carry <id> refused: <text>
 *
 * Gameserver → masterserver:
 *   universe proof: <64 hex>                     HMAC-SHA256(key, "starlane universe proof 1|<challenge>|<name>|<port>")
 *   system: <name> players: <n> gates:[ <a,b,…>]  one of its solar systems (again whenever its players change)
 *   clock epoch: <ms>                            the wall-clock ms its game clock counts from (a jump's clock shift)
 *   route: <ref> system: <name>                  where is that solar system?
 *   carry: <id> to: <name:port> state: <sealed>  forward a carried state to that server
 *
 * Replies to the server's lines: `system acknowledged`, `clock acknowledged`.
 */

const SYSTEM = '[A-Za-z0-9._-]{1,31}';
const SERVER = '\\S{1,40}:\\d{1,5}';
const REF = '\\d{1,9}';
const ID = '[0-9a-f]{16}';
const SEALED = '[A-Za-z0-9_-]{1,400}\\.[A-Za-z0-9_-]{22}';
/** Most gates a system line lists (galaxyMap.ts MAX_GATES). */
const MAX_GATES = 8;

export const UNIVERSE_MEMBER = 'universe member';
export const UNIVERSE_PROOF_REFUSED = 'universe proof refused';
export const SYSTEM_ACKNOWLEDGED = 'system acknowledged';
export const CLOCK_ACKNOWLEDGED = 'clock acknowledged';

export interface SystemLine {
  name: string;
  players: number;
  gates: string[];
}

export interface RouteFound {
  ref: number;
  host: string;
  port: number;
  /** The destination server as a ticket names it (`name:port`). */
  server: string;
  /** The wall-clock ms its game clock counts from. */
  epoch: number;
}

/** What a gameserver says to its masterserver (universe lines only). */
export type UniverseRequest =
  | { kind: 'proof'; proof: string }
  | ({ kind: 'system' } & SystemLine)
  | { kind: 'clock'; epoch: number }
  | { kind: 'route'; ref: number; system: string }
  | { kind: 'carry'; id: string; to: string; state: string };

/** What a masterserver says to a gameserver (universe lines only). */
export type UniverseReply =
  | { kind: 'challenge'; nonce: string }
  | { kind: 'member' }
  | { kind: 'proof-refused' }
  | ({ kind: 'route' } & RouteFound)
  | { kind: 'route-refused'; ref: number; why: string }
  | { kind: 'carry'; id: string; state: string }
  | { kind: 'carry-forwarded'; id: string }
  | { kind: 'carry-refused'; id: string; why: string }
  | { kind: 'acknowledged' };

const TEXT = '[\\x20-\\x7e]{1,120}';
const re = (s: string) => new RegExp(`^${s}$`);
const R = {
  proof: re('universe proof: ([0-9a-f]{64})'),
  system: re(`system: (${SYSTEM}) players: (\\d{1,3}) gates:(?: (${SYSTEM}(?:,${SYSTEM}){0,${MAX_GATES - 1}}))?`),
  clock: re('clock epoch: (\\d{1,15})'),
  route: re(`route: (${REF}) system: (${SYSTEM})`),
  carry: re(`carry: (${ID}) to: (${SERVER}) state: (${SEALED})`),
  challenge: re('universe challenge: ([0-9a-f]{32})'),
  found: re(`route (${REF}): host: ([0-9A-Fa-f.:]{2,45}) port: (\\d{1,5}) server: (${SERVER}) epoch: (\\d{1,15})`),
  refused: re(`route (${REF}) refused: (${TEXT})`),
  carried: re(`carry: (${ID}) state: (${SEALED})`),
  forwarded: re(`carry (${ID}) forwarded`),
  carryRefused: re(`carry (${ID}) refused: (${TEXT})`),
};

const port = (s: string): number | null => {
  const n = Number(s);
  return n >= 1 && n <= 65535 ? n : null;
};

/** A universe line from a gameserver, or null. */
export function parseUniverseRequest(line: string): UniverseRequest | null {
  let m: RegExpExecArray | null;
  if ((m = R.proof.exec(line))) return { kind: 'proof', proof: m[1] as string };
  if ((m = R.system.exec(line))) {
    const players = Number(m[2]);
    const gates = m[3] === undefined ? [] : m[3].split(',');
    return players <= 255 ? { kind: 'system', name: m[1] as string, players, gates } : null;
  }
  if ((m = R.clock.exec(line))) return Number.isSafeInteger(Number(m[1])) ? { kind: 'clock', epoch: Number(m[1]) } : null;
  if ((m = R.route.exec(line))) return { kind: 'route', ref: Number(m[1]), system: m[2] as string };
  if ((m = R.carry.exec(line))) return { kind: 'carry', id: m[1] as string, to: m[2] as string, state: m[3] as string };
  return null;
}

/** A universe line from a masterserver, or null. */
export function parseUniverseReply(line: string): UniverseReply | null {
  let m: RegExpExecArray | null;
  if (line === UNIVERSE_MEMBER) return { kind: 'member' };
  if (line === UNIVERSE_PROOF_REFUSED) return { kind: 'proof-refused' };
  if (line === SYSTEM_ACKNOWLEDGED || line === CLOCK_ACKNOWLEDGED) return { kind: 'acknowledged' };
  if ((m = R.challenge.exec(line))) return { kind: 'challenge', nonce: m[1] as string };
  if ((m = R.found.exec(line))) {
    const p = port(m[3] as string);
    const epoch = Number(m[5]);
    return p === null || !Number.isSafeInteger(epoch) ? null : { kind: 'route', ref: Number(m[1]), host: m[2] as string, port: p, server: m[4] as string, epoch };
  }
  if ((m = R.refused.exec(line))) return { kind: 'route-refused', ref: Number(m[1]), why: m[2] as string };
  if ((m = R.carried.exec(line))) return { kind: 'carry', id: m[1] as string, state: m[2] as string };
  if ((m = R.forwarded.exec(line))) return { kind: 'carry-forwarded', id: m[1] as string };
  if ((m = R.carryRefused.exec(line))) return { kind: 'carry-refused', id: m[1] as string, why: m[2] as string };
  return null;
}

/** The line of a gameserver's universe request. */
export function formatUniverseRequest(r: UniverseRequest): string {
  switch (r.kind) {
    case 'proof':
      return `universe proof: ${r.proof}`;
    case 'system':
      return `system: ${r.name} players: ${r.players} gates:${r.gates.length === 0 ? '' : ` ${r.gates.join(',')}`}`;
    case 'clock':
      return `clock epoch: ${Math.floor(r.epoch)}`;
    case 'route':
      return `route: ${r.ref} system: ${r.system}`;
    case 'carry':
      return `carry: ${r.id} to: ${r.to} state: ${r.state}`;
  }
}

/** The line of a masterserver's universe reply. */
export function formatUniverseReply(r: UniverseReply): string {
  switch (r.kind) {
    case 'challenge':
      return `universe challenge: ${r.nonce}`;
    case 'member':
      return UNIVERSE_MEMBER;
    case 'proof-refused':
      return UNIVERSE_PROOF_REFUSED;
    case 'route':
      return `route ${r.ref}: host: ${r.host} port: ${r.port} server: ${r.server} epoch: ${Math.floor(r.epoch)}`;
    case 'route-refused':
      return `route ${r.ref} refused: ${r.why}`;
    case 'carry':
      return `carry: ${r.id} state: ${r.state}`;
    case 'carry-forwarded':
      return `carry ${r.id} forwarded`;
    case 'carry-refused':
      return `carry ${r.id} refused: ${r.why}`;
    case 'acknowledged':
      return SYSTEM_ACKNOWLEDGED;
  }
}
