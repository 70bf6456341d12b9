/**
 * `host netgame`: a netgame server inside the player's own game (the seed's
 * "the server is player 0"), on the default ports, or on any free ones when
 * those are taken (another server on this machine). The protocol then joins
 * it like any other player, so the host has the same control lead as
 * everyone (fair), and closes it when it leaves, which tells the others.
 */
import type { MatchLimits } from '../../shared/game/match';
import { createLogger } from '../log';
import { startNetgameServer, type RunningNetgameServer } from '../servers/netgame/netgameServer';

/** Starts the server for `playerName`'s netgame with the host's match limits; `moved` says why it is not on the default ports. */
export async function startHostedNetgame(playerName: string, matchLimits: Partial<MatchLimits>): Promise<{ server: RunningNetgameServer; name: string; moved: string }> {
  const log = createLogger('starlane-netgame', 'warn');
  const name = `${playerName}'s netgame`.slice(0, 31);
  try {
    return { server: await startNetgameServer({ name, log, matchLimits }), name, moved: '' };
  } catch {
    const server = await startNetgameServer({ name, log, matchLimits, port: 0, udpPort: 0 });
    return { server, name, moved: ' (the default ports were taken: the LAN cannot find it; others connect by address)' };
  }
}
