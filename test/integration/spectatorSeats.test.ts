/**
 * Spectator seats of the join server (Starlane 1.2; the game- and netgame
 * servers' spectators build on them): a spectate line gets a seat apart
 * from the players', with its UDP port and token, the welcome lines and the
 * client list; it hears players come and go but is on nobody's list; the
 * 33rd spectator of 32 seats is refused with `spectators full`; a spectator
 * hears the ship looks chosen before it came; a server
 * without spectator seats calls a spectate line invalid.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startJoinServer } from '../../src/node/servers/join/joinServer';
import type { JoinServer } from '../../src/node/servers/join/joinOptions';
import { LineClient } from '../support/lineClient';
import { waitFor } from '../support/waitFor';

const servers: JoinServer[] = [];
const clients: LineClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.socket.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(spectators: boolean, maxPerAddress?: number): Promise<JoinServer> {
  let token = 0x1000;
  const s = await startJoinServer({
    name: 'Watched',
    host: '127.0.0.1',
    port: 0,
    kind: 'gameserver',
    maxPlayers: 2,
    slotLimit: 255,
    ...(maxPerAddress === undefined ? {} : { maxPerAddress }),
    welcome: ['hello'],
    log: pino({ level: 'silent' }),
    hooks: { joined: () => ({ udp: 6522, token: token++ }), ...(spectators ? { spectatorJoined: () => ({ udp: 6522, token: token++ }) } : {}) },
  });
  servers.push(s);
  return s;
}

/** A connection to `s`; `from`: its loopback source address (one address may hold only so many connections). */
async function client(s: JoinServer, from?: string): Promise<LineClient> {
  const c = await LineClient.open(s.port, '127.0.0.1', from);
  clients.push(c);
  return c;
}

describe('spectator seats', () => {
  it('a spectator gets its seat apart from the players, hears the client list, and is on nobody\'s', async () => {
    const s = await server(true);
    const red = await client(s);
    red.send('version: 1.2 join me: Red os: linux port: 6600');
    expect(await red.next()).toMatch(/^join from Red accepted, slot: 0, server name: Watched, udp: 6522, token: [0-9a-f]{8}$/);
    await red.take(4);
    const eye = await client(s);
    eye.send('version: 1.2 spectate: Eye os: linux port: 6601');
    expect(await eye.next()).toMatch(/^spectate from Eye accepted, server name: Watched, udp: 6522, token: [0-9a-f]{8}$/);
    expect(await eye.take(4)).toEqual(['hello', '', '', '']);
    expect(await eye.next()).toBe('add ip: 127.0.0.1:6600 name: Red in 0');
    expect(s.playerCount()).toBe(1);
    expect(s.spectators().map((p) => p.name)).toEqual(['Eye']);
    // A player joining: the spectator hears it; the players hear nothing of the spectator.
    const blue = await client(s);
    blue.send('version: 1.2 join me: Blue os: linux port: 6602');
    expect(await blue.next()).toMatch(/^join from Blue accepted, slot: 1,/);
    await blue.take(4);
    expect(await blue.next()).toBe('add ip: 127.0.0.1:6600 name: Red in 0');
    expect(await eye.next()).toBe('add ip: 127.0.0.1:6602 name: Blue in 1');
    // A spectator's name is taken like a player's.
    const twin = await client(s);
    twin.send('version: 1.2 spectate: eye os: linux port: 6603');
    expect(await twin.next()).toBe('name already taken');
    blue.send('remove me');
    expect(await blue.next()).toBe('removing you');
    expect(await eye.next()).toMatch(/^remove ip: 127\.0\.0\.1:6602/);
  });

  it("a spectator joining hears the ship looks the players chose before it came, after their add lines", async () => {
    const s = await server(true);
    const red = await client(s);
    red.send('version: 1.2 join me: Red os: linux port: 6600');
    await red.take(5);
    red.send('my ship: manta orange');
    // Blue hears Red's look: the server has taken it.
    const blue = await client(s);
    blue.send('version: 1.2 join me: Blue os: linux port: 6602');
    await blue.take(5);
    expect(await blue.take(2)).toEqual(['add ip: 127.0.0.1:6600 name: Red in 0', 'ship ip: 127.0.0.1:6600 ship: manta orange']);
    const eye = await client(s);
    eye.send('version: 1.2 spectate: Eye os: linux port: 6601');
    await eye.take(5);
    expect(await eye.take(3)).toEqual(['add ip: 127.0.0.1:6600 name: Red in 0', 'add ip: 127.0.0.1:6602 name: Blue in 1', 'ship ip: 127.0.0.1:6600 ship: manta orange']);
  });

  it('the 33rd spectator of 32 seats is told spectators full, and its connection closed', async () => {
    const s = await server(true);
    for (let i = 0; i < 32; i++) {
      const c = await client(s, `127.0.0.${2 + (i % 8)}`);
      c.send(`version: 1.2 spectate: w${i} os: linux port: ${7000 + i}`);
      expect(await c.next()).toMatch(/^spectate from w\d+ accepted/);
    }
    expect(s.spectators()).toHaveLength(32);
    const late = await client(s, '127.0.0.10');
    late.send('version: 1.2 spectate: w32 os: linux port: 7032');
    expect(await late.next()).toBe('spectators full');
    await expect(late.next()).rejects.toThrow(/connection ended/);
    expect(s.playerCount()).toBe(0);
  });

  it('a server without spectator seats calls a spectate line invalid', async () => {
    const s = await server(false);
    const c = await client(s);
    c.send('version: 1.2 spectate: Eye os: linux');
    expect(await c.next()).toBe('you sent an invalid request');
    expect(s.spectators()).toEqual([]);
  });

  it('one host holds at most its share of spectator seats (the players\' per-address limit), apart from its players\'', async () => {
    const s = await server(true, 2);
    const eyes: LineClient[] = [];
    for (let i = 0; i < 2; i++) {
      const c = await client(s, '127.0.0.20');
      c.send(`version: 1.2 spectate: Eye${i} os: linux port: ${6700 + i}`);
      expect(await c.next()).toMatch(/^spectate from Eye\d accepted/);
      eyes.push(c);
    }
    const third = await client(s, '127.0.0.20');
    third.send('version: 1.2 spectate: Eye2 os: linux port: 6702');
    expect(await third.next()).toBe('spectators full');
    // Its share of players' seats is its own still, and another host still gets a spectator seat.
    const red = await client(s, '127.0.0.20');
    red.send('version: 1.2 join me: Red os: linux port: 6710');
    expect(await red.next()).toMatch(/^join from Red accepted, slot: 0/);
    const other = await client(s, '127.0.0.21');
    other.send('version: 1.2 spectate: Far os: linux port: 6711');
    expect(await other.next()).toMatch(/^spectate from Far accepted/);
    // A seat freed is the host's again.
    eyes[0]?.send('remove me');
    await new Promise<void>((resolve) => eyes[0]?.socket.once('close', () => resolve()));
    await waitFor('the seat freed', () => s.spectators().length === 2);
    const again = await client(s, '127.0.0.20');
    again.send('version: 1.2 spectate: Eye3 os: linux port: 6703');
    expect(await again.next()).toMatch(/^spectate from Eye3 accepted/);
  });
});
