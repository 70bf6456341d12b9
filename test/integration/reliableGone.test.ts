/**
 * A node that stops acknowledging reliable messages is declared gone after
 * the documented 12 sends (10.4 s on a fast link): here a gameserver client
 * that keeps answering pings — so it is not silent — but never acknowledges
 * the chat lines the server passes on to it. The server drops it, tells it
 * why, and logs the reason.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { giveUpAfterMs, RELIABLE_DEFAULTS } from '../../src/shared/net/reliable';
import { startGameserver } from '../../src/node/servers/gameserver';
import type { RunningServer } from '../../src/node/servers/types';
import { GameClient } from '../support/gameClient';
import { startTestHost, until, type TestHost } from '../support/testHost';

const hosts: TestHost[] = [];
const servers: RunningServer[] = [];
const clients: GameClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('a node that stops acknowledging', () => {
  it('is dropped by the gameserver after the documented number of resends, with the reason told and logged', async () => {
    const logged: string[] = [];
    const log = pino({ level: 'warn' }, new Writable({ write: (chunk, _e, done) => (logged.push(String(chunk)), done()) }));
    const server = await startGameserver({ name: 'Acks', log, port: 0, udpPort: 0, host: '127.0.0.1', maxPlayers: 4, welcome: [] });
    servers.push(server);
    const talker = await startTestHost('talker', { protocol: 'gameserver' });
    hosts.push(talker);
    await talker.run(`connect 127.0.0.1:${server.ports.tcp}`);
    await until('talker joined', () => /joined gameserver "Acks"/.test(talker.text()), 10_000);

    // A bare client: answers the server's pings, sends states, but knows nothing of acknowledgements.
    const mute = await GameClient.join({ tcpPort: server.ports.tcp ?? 0, name: 'mute' });
    clients.push(mute);
    mute.hello();
    await until('the server lists both', () => server.playerCount() === 2);
    const t0 = Date.now();
    await talker.run('say are you there?');
    await mute.until(() => mute.relayed().some((r) => r.packet.events.some((e) => e.type === 'reliable')), 3000, 'the chat line to reach the mute client');

    const beat = setInterval(() => mute.sendState({ x: 0, y: 0, z: 0 }), 500);
    try {
      await mute.until(() => mute.tcp.lines.some((l) => l.startsWith('removed: ')), 20_000, 'the server to drop the mute client');
    } finally {
      clearInterval(beat);
    }
    const elapsed = Date.now() - t0;
    const removed = mute.tcp.lines.find((l) => l.startsWith('removed: ')) ?? '';
    console.log(`reliable: a client that never acknowledges was dropped ${(elapsed / 1000).toFixed(1)} s after the first message — "${removed}"`);
    expect(removed).toMatch(new RegExp(`removed: stopped acknowledging reliable messages \\(no acknowledgement after ${RELIABLE_DEFAULTS.maxSends} sends over [\\d.]+ s\\)`));
    // Not before the documented give-up time, and not much after it (the server checks every tick).
    expect(elapsed).toBeGreaterThanOrEqual(giveUpAfterMs() - 200);
    expect(elapsed).toBeLessThan(giveUpAfterMs() + 3000);
    expect(mute.tcp.lines).toContain('removing you');
    expect(logged.join('')).toMatch(/stopped acknowledging reliable messages/);
    // The talker, who acknowledges, is still there and hears that the other left.
    await until('talker sees mute leave', () => /mute disconnected|mute left/.test(talker.text()), 5000);
    expect(server.playerCount()).toBe(1);
  }, 40_000);
});
