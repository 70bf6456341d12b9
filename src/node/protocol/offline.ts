/**
 * The `offline` protocol: single player. It never touches the packet API, so
 * it works even when no packet API could be bound.
 */
import type { Protocol, ProtocolContext } from '../../shared/protocol/protocol';
import { resolveConnectTarget } from './serverPick';

/** Name of the offline protocol as typed in the console. */
export const OFFLINE_PROTOCOL = 'offline';

/** How to get into a network game, for every "you are offline" answer. */
const HOW_TO_PLAY = 'protocol p2p (then connect) for a LAN game, or servers and connect <n> for a server';

/**
 * Single-player protocol: nothing is ever sent or received. While running it
 * answers the network commands every other protocol has (`connect`,
 * `disconnect`, `join`, `unjoin`, `players`) with a line saying what they do
 * offline instead of leaving the player with "unknown command". Owns only
 * those commands; init and kill are idempotent.
 */
export class OfflineProtocol implements Protocol {
  readonly name = OFFLINE_PROTOCOL;
  private running = false;
  private removers: (() => void)[] = [];

  constructor(private readonly context: ProtocolContext) {}

  async init(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.removers = [
      this.context.addCommand({
        name: 'connect',
        help: 'join a game (not available while playing offline)',
        usage: '[host[:port] | n]',
        run: (args, out) => {
          // `connect <n>` after `servers` switches to that server's protocol.
          const picked = resolveConnectTarget(this.context, OFFLINE_PROTOCOL, args[0]);
          if (picked.line && /^[0-9]{1,3}$/.test(args[0] ?? '')) return out.print(picked.line);
          out.print('connect: you are playing offline (protocol offline); pick a network model first — protocol p2p or lockstep (a LAN game), slotserver, gameserver or netgame (a server) — then connect; or servers (servers lan) lists the servers to connect <n> to', 'warn');
        },
      }),
      this.context.addCommand({
        name: 'disconnect',
        help: 'leave the current game',
        args: { max: 0 },
        run: (_args, out) => out.print('disconnect: not connected (protocol offline)', 'warn'),
      }),
      this.context.addCommand({
        name: 'join',
        help: 'enter a network game with your ship (after connect; offline your ship is always in)',
        args: { max: 0 },
        run: (_args, out) =>
          out.print(`join: you are playing offline, where your ship is always in the game; join enters a network game after connect — ${HOW_TO_PLAY}`, 'warn'),
      }),
      this.context.addCommand({
        name: 'unjoin',
        help: 'leave a network game but keep your slot (not available offline)',
        args: { max: 0 },
        run: (_args, out) => out.print('unjoin: not in a network game (protocol offline)', 'warn'),
      }),
      this.context.addCommand({
        name: 'players',
        help: 'list the players of the network game (offline: just you)',
        args: { max: 0 },
        run: (_args, out) => out.print(`players: not in a network game — you are playing offline, alone; to play with others: ${HOW_TO_PLAY}`, 'warn'),
      }),
    ];
  }

  async kill(): Promise<void> {
    this.running = false;
    for (const remove of this.removers.splice(0)) remove();
  }

  status(): string {
    return this.running ? 'single player, no packets are sent' : 'not started';
  }
}
