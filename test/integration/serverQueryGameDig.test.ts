/**
 * A monitoring tool reads Starlane's servers: GameDig (a dev dependency,
 * speaking Valve's A2S with its challenge handshake, as server browsers do)
 * queries a running gameserver, slotserver and netgame server on loopback
 * and reads each one's name, map, seats and players, and the gameserver's
 * rules.
 */
import { GameDig } from 'gamedig';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startGameserver } from '../../src/node/servers/game/gameserver';
import { startSlotserver } from '../../src/node/servers/slot/slotserver';
import { startNetgameServer } from '../../src/node/servers/netgame/netgameServer';
import type { RunningServer } from '../../src/node/servers/common/types';
import { GameClient } from '../support/gameClient';
import { LineClient } from '../support/lineClient';

const log = pino({ level: 'silent' });
const servers: RunningServer[] = [];
const clients: { close(): void }[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const query = (port: number, requestRules = false) => GameDig.query({ type: 'protocol-valve', host: '127.0.0.1', port, requestRules, maxRetries: 2, socketTimeout: 2000, givenPortOnly: true });

describe('GameDig reads Starlane servers over A2S', () => {
  it('a gameserver: its name, map, seats, both players and its rules', async () => {
    const s = await startGameserver({ name: 'Dig Arena', host: '127.0.0.1', port: 0, udpPort: 0, maxPlayers: 10, log });
    servers.push(s);
    for (const name of ['ace', 'bob']) {
      const c = await GameClient.join({ tcpPort: s.ports.tcp ?? 0, name });
      clients.push(c);
      c.hello();
    }
    const r = await query(s.ports.udp ?? 0, true);
    expect(r).toMatchObject({ name: 'Dig Arena', map: 'Sol', password: false, numplayers: 2, maxplayers: 10 });
    expect(r.players.map((p) => p.name).sort()).toEqual(['ace', 'bob']);
    expect(r.raw?.['rules']).toMatchObject({ protocol: 'gameserver', join: `tcp ${s.ports.tcp}` });
    console.log(`GameDig: ${r.name} on ${r.map}, ${r.numplayers}/${r.maxplayers} players (${r.players.map((p) => p.name).join(', ')}), version ${r.version}, ping ${r.ping} ms`);
  });

  it('a slotserver and a netgame server: name and players', async () => {
    const slots = await startSlotserver({ name: 'Dig Slots', host: '127.0.0.1', port: 0, udpPort: 0, maxPlayers: 8, welcome: [], log });
    const net = await startNetgameServer({ name: 'Dig Net', host: '127.0.0.1', port: 0, udpPort: 0, log });
    servers.push(slots, net);
    const player = await LineClient.open(slots.ports.tcp ?? 0);
    clients.push({ close: () => player.socket.destroy() });
    player.send('version: 1.2 join me: carol os: linux port: 6601');
    expect(await player.next()).toMatch(/^join from carol accepted/);
    const a = await query(slots.ports.udp ?? 0);
    expect(a).toMatchObject({ name: 'Dig Slots', numplayers: 1 });
    expect(a.players.map((p) => p.name)).toEqual(['carol']);
    const b = await query(net.ports.udp);
    expect(b).toMatchObject({ name: 'Dig Net', numplayers: 0, maxplayers: 8 });
  });
});
