/**
 * In-process gameservers and joined clients for the gameserver tests: each
 * test file calls {@link useGameservers} once; everything it starts is closed
 * after each test.
 */
import dgram from 'node:dgram';
import pino from 'pino';
import { afterEach } from 'vitest';
import { startGameserver, type Gameserver, type GameserverOptions } from '../../src/node/servers/game/gameserver';
import { GameClient, LineClient } from './gameClient';

export function useGameservers() {
  const SERVER = 'Test Game';
  const servers: Gameserver[] = [];
  const clients: GameClient[] = [];
  const lineClients: LineClient[] = [];
  const sockets: dgram.Socket[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    for (const l of lineClients.splice(0)) l.socket.destroy();
    for (const s of sockets.splice(0)) s.close();
    await Promise.all(servers.splice(0).map((s) => s.close('test over')));
  });

  async function server(extra: Partial<GameserverOptions> = {}): Promise<Gameserver> {
    const s = await startGameserver({ name: SERVER, host: '127.0.0.1', port: 0, udpPort: 0, welcome: ['Welcome.'], pingIntervalMs: 60_000, log: pino({ level: 'silent' }), ...extra });
    servers.push(s);
    return s;
  }
  async function join(s: Gameserver, name: string, options: { answerReliable?: boolean; version?: string; relayAcks?: boolean; spectate?: boolean; localAddress?: string } = {}): Promise<GameClient> {
    const c = await GameClient.join({ tcpPort: s.ports.tcp ?? 0, name, ...options });
    clients.push(c);
    return c;
  }
  /**
   * Joins `names` in order and drains the client-list lines each one gets;
   * each says hello over UDP (a NodeAlive), so the server knows where to send.
   */
  async function players(s: Gameserver, names: string[], options: { answerReliable?: boolean } = {}): Promise<GameClient[]> {
    const out: GameClient[] = [];
    for (const name of names) {
      const c = await join(s, name, options);
      for (let i = 0; i < out.length; i++) await c.tcp.next();
      for (const earlier of out) await earlier.tcp.next();
      c.hello();
      out.push(c);
    }
    await out[0]?.until(() => s.stats().clients.every((c) => c.udp !== null), 10_000, 'every client to be bound');
    return out;
  }
  /** Takes a spectator's seat as `name` (reading the add lines of the players seated now), and says hello over UDP. */
  async function spectator(s: Gameserver, name: string, options: { relayAcks?: boolean } = {}): Promise<GameClient> {
    const c = await join(s, name, { ...options, spectate: true });
    for (let i = 0; i < s.playerCount(); i++) await c.tcp.next();
    c.hello();
    await c.until(() => s.stats().spectators.list.some((w) => w.name === name && w.udp !== null), 10_000, `${name}'s endpoint to be bound`);
    return c;
  }
  return { SERVER, server, join, players, spectator, clients, lineClients, sockets };
}
