/**
 * The checks a slot- or gameserver's join options get before anything
 * listens: the server name, the player count and the welcome lines.
 */
import { formatJoinAccepted, isMessageLine, isServerName, MESSAGE_LINES, parseServerLine } from '../../../shared/servers/joinProtocol';

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
