/**
 * The join protocol's ship-look lines (Starlane extension, version 1.2;
 * the grammar beside the others in joinProtocol.ts and docs/PROTOCOL.md):
 *
 *   my ship   = "my ship: " DESIGN " " COLOUR          (client → server, once joined)
 *   ship      = "ship ip: " EP " ship: " DESIGN " " COLOUR   (server → 1.2 clients)
 *
 *   DESIGN = "dart" | "wasp" | "manta" | "auto";
 *   COLOUR = "blue" | "orange" | "green" | "yellow" | "violet" | "cyan" | "pink" | "white" | "auto"
 *   ("auto": left to the slot, shared/wire/shipLook.ts).
 *
 * A 1.2 client sends `my ship:` right after its accept when it chose a look,
 * and again whenever it changes it. The server tells the other 1.2 clients
 * with `ship ip:`, and a 1.2 newcomer hears every chosen look after the
 * `add` lines. Older clients send and get none of this. Parsers never throw.
 */
import { formatLook, isShipLook, parseLook, type ShipLook } from '../wire/shipLook';
import { formatEndpoint, parseEndpoint, type Endpoint } from './joinFields';

/** The first minor whose clients send and read the ship lines. */
export const SHIP_LOOK_MINOR = 2;

const MY_SHIP = 'my ship: ';

/** `ship ip: …`: the player at `endpoint` flies in `look`. */
export type ShipUpdate = { endpoint: Endpoint; look: ShipLook };

/** The look a `my ship:` line asks for, or null for any other line. */
export function parseMyShip(line: string): ShipLook | null {
  return line.startsWith(MY_SHIP) ? parseLook(line.slice(MY_SHIP.length)) : null;
}

export function formatMyShip(look: ShipLook): string {
  if (!isShipLook(look)) throw new RangeError(`shipLines: invalid look: ${JSON.stringify(look)}`);
  return `${MY_SHIP}${formatLook(look)}`;
}

/** A `ship ip:` line, or null. */
export function parseShipUpdate(line: string): ShipUpdate | null {
  const m = /^ship ip: (\S+) ship: (.+)$/.exec(line);
  if (!m) return null;
  const endpoint = parseEndpoint(m[1] ?? '');
  const look = parseLook(m[2] ?? '');
  return endpoint && look ? { endpoint, look } : null;
}

export function formatShipUpdate(u: ShipUpdate): string {
  if (!isShipLook(u.look)) throw new RangeError(`shipLines: invalid look: ${JSON.stringify(u.look)}`);
  return `ship ip: ${formatEndpoint(u.endpoint)} ship: ${formatLook(u.look)}`;
}
