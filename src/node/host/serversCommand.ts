import { queryMaster } from '../net/masterQuery';
import { parseTarget } from '../protocol/serverClient';
import type { ListedServer } from '../../shared/servers/masterProtocol';
import { DEFAULT_MASTER_PORT } from '../../shared/servers/masterProtocol';
import type { HostService } from './hostService';

export interface ServerList {
  /** The n-th server (1-based, as printed) of the last listing, when `text` is such a number. */
  pick(text: string): { protocol: string | null; target: string } | null;
}

/**
 * `servers`: asks the masterserver named by the archived cvar `net_master`
 * (host[:port], default localhost:6502) for its list and prints it numbered;
 * `connect <n>` then joins server n, switching protocol if needed.
 */
export function registerServersCommand(host: HostService): ServerList {
  let last: ListedServer[] = [];
  const master = host.addCvar({
    name: 'net_master',
    type: 'string',
    default: `localhost:${DEFAULT_MASTER_PORT}`,
    maxLength: 255,
    help: 'masterserver asked by the servers command (host[:port])',
    flags: { archive: true },
    validate: (v) => (parseTarget(v, DEFAULT_MASTER_PORT) ? null : 'must be host[:port]'),
  });
  host.console.addCommand({
    name: 'servers',
    help: 'list the servers a masterserver knows (then: connect <number>)',
    args: { max: 0 },
    run: async (_args, out) => {
      const target = parseTarget(master.value, DEFAULT_MASTER_PORT);
      if (!target) return out.print(`net_master "${master.value}" is not host[:port]`, 'error');
      try {
        last = await queryMaster(target.host, target.port);
      } catch (err) {
        return out.print(`servers: ${(err as Error).message}`, 'error');
      }
      if (last.length === 0) return out.print(`the masterserver at ${target.host}:${target.port} lists no servers`);
      out.print(`  #  name                 type        players  address`);
      last.forEach((s, i) =>
        out.print(`${String(i + 1).padStart(3)}  ${s.name.padEnd(20)} ${(s.type ?? '?').padEnd(11)} ${`${s.players}/${s.maxPlayers}`.padEnd(8)} ${s.host}:${s.port ?? '?'}`),
      );
      out.print('type connect <number> to join one');
    },
  });
  return {
    pick: (text) => {
      if (!/^\d{1,3}$/.test(text)) return null;
      const s = last[Number(text) - 1];
      if (!s || s.port === null) return null;
      const host = s.host.includes(':') ? `[${s.host}]` : s.host;
      return { protocol: s.type, target: `${host}:${s.port}` };
    },
  };
}
