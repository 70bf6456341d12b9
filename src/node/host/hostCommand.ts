/**
 * The `host netgame` command: switches to the netgame protocol (if it is not
 * bound) and has it start a netgame server inside this game, joined as
 * player 0 (netgameHost.ts). Others find it on the LAN or connect by
 * address; when this player leaves (disconnect, another protocol, quit), the
 * server closes and they are told.
 */
import { NETGAME_PROTOCOL } from '../protocol/netgame';
import type { HostService } from './hostService';
import { protocolReport } from './protocolSwitch';
import { rebind } from './subsystemCommand';

export function registerHostCommand(host: HostService): () => void {
  return host.console.addCommand({
    name: 'host',
    help: 'host netgame: start a netgame server in this game and join it as player 0 (others find it on the LAN, or connect to this machine)',
    usage: 'netgame',
    args: { min: 1, max: 1 },
    complete: () => [NETGAME_PROTOCOL],
    run: async (args, out) => {
      if (args[0] !== NETGAME_PROTOCOL) return out.print(`host: only a netgame can be hosted (host ${NETGAME_PROTOCOL})`, 'error');
      const protocol = host.subsystems.protocol;
      if (protocol.bound() !== NETGAME_PROTOCOL) {
        const result = await rebind(host, protocol, protocolReport(host), NETGAME_PROTOCOL, out);
        if (!result.ok) return;
      }
      const line = (await protocol.table.hostGame?.()) ?? 'host: the netgame protocol cannot host';
      out.print(line);
    },
  });
}
