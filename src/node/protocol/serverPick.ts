import type { ProtocolContext } from '../../shared/protocol/protocol';
import { SLOTSERVER_PORT } from '../../shared/servers/joinProtocol';

/**
 * `connect <n>` handling shared by the protocols: n picks a server of the
 * last `servers` list. Returns the target to connect this protocol to, or a
 * line to print (the host switches protocol when the server needs another).
 */
export function resolveConnectTarget(ctx: ProtocolContext, self: string, text: string | undefined): { target?: string; line?: string } {
  if (text === undefined || !/^\d{1,3}$/.test(text)) return text === undefined ? {} : { target: text };
  const picked = ctx.pickServer?.(text);
  if (!picked) return { line: `connect: no server ${text} in the last list (type servers or servers lan first)` };
  if (picked.protocol === null) return { line: `connect: server ${text} did not say whether it is a slotserver or a gameserver` };
  if (picked.protocol === self) return { target: picked.target };
  if (!ctx.switchTo) return { line: `connect: server ${text} needs protocol ${picked.protocol}` };
  ctx.switchTo(picked.protocol, picked.target);
  return { line: `server ${text} is a ${picked.protocol}: switching protocol ${self} -> ${picked.protocol}` };
}

/** `host[:port]`, `[v6]:port` or `v6` → host and port (default 6582); null when malformed. */
export function parseTarget(text: string, defaultPort = SLOTSERVER_PORT): { host: string; port: number } | null {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(text) ?? /^([^:\s]+)(?::(\d+))?$/.exec(text);
  const host = m?.[1] ?? (text.includes(':') && !/\s/.test(text) ? text : undefined);
  const port = m?.[2] === undefined ? defaultPort : Number(m[2]);
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { host, port };
}
