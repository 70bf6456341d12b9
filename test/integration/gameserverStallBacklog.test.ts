/**
 * A gameserver that was stopped reads its socket's backlog before its timers
 * run: the first datagram judges the seats silent for the timeout (their
 * players are removed), and the rest of the backlog carries the removed
 * sessions' tokens. Those datagrams are no attack: counted as unknown
 * tokens, but no strike against their source, so the player's address is not
 * blocked when it joins again from the same socket (CI once caught a bot
 * blocked this way: no clock reply, its new seat freed unproved). Protocol
 * time runs on a virtual clock; the datagrams are real.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startGameserver, type Gameserver } from '../../src/node/servers/game/gameserver';
import { GameClient } from '../support/gameClient';
import { VirtualClock } from '../support/virtualClock';

const servers: Gameserver[] = [];
const clients: GameClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) await s.close();
});

/** Datagrams of the old session left in the socket buffer: more than the 50 bad datagrams that get a source blocked. */
const BACKLOG = 80;

describe('a gameserver stall longer than the silence timeout', () => {
  it('removes the silent player when the backlog is read first, and the backlog of its ended session does not get its address blocked', async () => {
    const clock = new VirtualClock();
    const s = await startGameserver({ name: 'stall', host: '127.0.0.1', port: 0, udpPort: 0, clock, pingIntervalMs: 60_000, log: pino({ level: 'silent' }) });
    servers.push(s);
    const player = await GameClient.join({ tcpPort: s.ports.tcp ?? 0, name: 'player' });
    clients.push(player);
    player.hello();
    await player.until(() => (s.stats().clients[0]?.udp ?? null) !== null, 10_000, 'the seat bound to its endpoint');
    const readBefore = s.stats().packetsIn;

    // Stopped for 15 s (the silence timeout is 10 s); continued, it reads the backlog before any tick.
    clock.jump(15_000);
    for (let i = 0; i < BACKLOG; i++) player.sendState({ x: i, y: 0, z: 0 });
    await player.until(() => s.stats().packetsIn >= readBefore + BACKLOG, 10_000, 'the backlog read');
    await player.tcp.closed;
    clock.advance(1000);

    const st = s.stats();
    console.log(`backlog of ${BACKLOG} datagrams after a 15 s stall: seats ${st.clients.length}, drops ${JSON.stringify(st.drops)}, sources blocked ${st.blocks}`);
    expect(st.clients).toEqual([]);
    expect(st.drops['unknown-token']).toBe(BACKLOG);
    expect(st.blocks).toBe(0);
    expect(st.blockedNow).toBe(0);
  });
});
