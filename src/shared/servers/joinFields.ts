/**
 * The fields of the join protocol's lines (joinProtocol.ts): IPv4 and IPv6
 * addresses, endpoints (EP: an address with the UDP game port, written only
 * when it is not 6526), player, OS and server names, message lines, ports and
 * slots; each with its test, endpoints with their parse and format, and the
 * range check every formatter makes. The syntax is in joinProtocol.ts's
 * grammar (NAME, OS, SERVER, SLOT, PORT, MESSAGE, EP).
 */
import { validatePlayerName } from '../wire/strings';
import { DEFAULT_CLIENT_PORT } from '../net/packetApi';

export const MAX_OS_LENGTH = 31;
export const MAX_SERVER_NAME_LENGTH = 31;
export const MAX_MESSAGE_BYTES = 160;
export const MAX_SLOT = 254;

/** Where a client receives game packets: its IP address and UDP port. */
export type Endpoint = { address: string; port: number };

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;
const ZONE = /^[0-9A-Za-z_.-]{1,15}$/;
const PRINTABLE_TRIMMED = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True for a dotted-quad IPv4 address without leading zeros. */
export function isIPv4(text: string): boolean {
  return IPV4.test(text);
}

/** True for an IPv6 address in any RFC 4291 text form, optionally with a `%zone` (as Node reports link-local peers). */
export function isIPv6(text: string): boolean {
  let s = text;
  const pct = s.indexOf('%');
  if (pct >= 0) {
    if (!ZONE.test(s.slice(pct + 1))) return false;
    s = s.slice(0, pct);
  }
  const lastColon = s.lastIndexOf(':');
  if (lastColon >= 0 && s.includes('.', lastColon)) {
    // An embedded IPv4 tail counts as two groups.
    if (!IPV4.test(s.slice(lastColon + 1))) return false;
    s = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const gap = s.indexOf('::');
  if (gap !== s.lastIndexOf('::')) return false;
  if (gap < 0) {
    const groups = s.split(':');
    return groups.length === 8 && groups.every((g) => HEX_GROUP.test(g));
  }
  const head = s.slice(0, gap) ? s.slice(0, gap).split(':') : [];
  const tail = s.slice(gap + 2) ? s.slice(gap + 2).split(':') : [];
  return head.length + tail.length <= 7 && [...head, ...tail].every((g) => HEX_GROUP.test(g));
}

/** A player name as the protocol carries it: exactly what validatePlayerName accepts, untrimmed. */
export function isProtocolName(name: string): boolean {
  const v = validatePlayerName(name);
  return v.ok && v.name === name;
}

/** An OS string: 1..31 printable ASCII without ':' and without space at either end. */
export function isOsName(os: string): boolean {
  return os.length <= MAX_OS_LENGTH && PRINTABLE_TRIMMED.test(os) && !os.includes(':');
}

/** A server name: 1..31 printable ASCII without space at either end. */
export function isServerName(name: string): boolean {
  return name.length <= MAX_SERVER_NAME_LENGTH && PRINTABLE_TRIMMED.test(name);
}

/** A welcome message line: ≤ 160 UTF-8 bytes, well-formed, no control characters; empty is fine. */
export function isMessageLine(text: string): boolean {
  return !CONTROL.test(text) && !LONE_SURROGATE.test(text) && new TextEncoder().encode(text).length <= MAX_MESSAGE_BYTES;
}

/** A UDP or TCP port: 1..65535. */
export const isPort = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= 65535;
/** A slot: 0..254. */
export const isSlot = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= MAX_SLOT;
/** A port in canonical decimal, or null. */
export function parsePort(text: string): number | null {
  if (!/^[1-9]\d{0,4}$/.test(text)) return null;
  const n = Number(text);
  return isPort(n) ? n : null;
}

/** The formatters' range check: a RangeError naming the field when `ok` is false. */
export function checkField(ok: boolean, what: string, value: unknown): void {
  if (!ok) throw new RangeError(`joinProtocol: invalid ${what}: ${JSON.stringify(value)}`);
}

/** The endpoint token: `a.b.c.d`, `v6`, `a.b.c.d:port` or `[v6]:port` (port only when not 6526). */
export function formatEndpoint(endpoint: Endpoint): string {
  const { address, port } = endpoint;
  const v4 = isIPv4(address);
  checkField(v4 || isIPv6(address), 'address', address);
  checkField(isPort(port), 'port', port);
  if (port === DEFAULT_CLIENT_PORT) return address;
  return v4 ? `${address}:${port}` : `[${address}]:${port}`;
}

/** Reads an endpoint token in canonical form (an explicit `:6526` is refused), or `null`. */
export function parseEndpoint(token: string): Endpoint | null {
  const withPort = (address: string, portText: string): Endpoint | null => {
    const port = parsePort(portText);
    return port === null || port === DEFAULT_CLIENT_PORT ? null : { address, port };
  };
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(token);
  if (bracketed) return isIPv6(bracketed[1] ?? '') ? withPort(bracketed[1] ?? '', bracketed[2] ?? '') : null;
  if (isIPv4(token)) return { address: token, port: DEFAULT_CLIENT_PORT };
  const v4Port = /^([\d.]+):(\d+)$/.exec(token);
  if (v4Port) return isIPv4(v4Port[1] ?? '') ? withPort(v4Port[1] ?? '', v4Port[2] ?? '') : null;
  return isIPv6(token) ? { address: token, port: DEFAULT_CLIENT_PORT } : null;
}
