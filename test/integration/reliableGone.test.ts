/**
 * A node that stops acknowledging reliable messages is declared gone after
 * the documented 12 sends (10.4 s on a fast link): here a gameserver client
 * that keeps sending states — so it is not silent — but never acknowledges
 * the chat line the server passes on to it. The server drops it, tells it
 * why, and logs the reason. The server runs on a virtual clock, so the ten
 * seconds pass in 100 ms steps, each taken once the mute client's state has
 * arrived: the give-up time is checked to the step, whatever the machine does.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { giveUpAfterMs, RELIABLE_DEFAULTS } from '../../src/shared/net/reliable';
import { startGameserver } from '../../src/node/servers/game/gameserver';
import type { RunningServer } from '../../src/node/servers/common/types';
import { GameClient } from '../support/gameClient';
import { VirtualClock } from '../support/virtualClock';
import { waitFor } from '../support/waitFor';

const STEP_MS = 100;
const servers: RunningServer[] = [];
const clients: GameClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('a node that stops acknowledging', () => {
  it('is dropped by the gameserver after the documented number of resends, with the reason told and logged', async () => {
    const logged: string[] = [];
    const log = pino({ level: 'warn' }, new Writable({ write: (chunk, _e, done) => (logged.push(String(chunk)), done()) }));
    const clock = new VirtualClock();
    const server = await startGameserver({ name: 'Acks', log, clock, gatherMs: 0, port: 0, udpPort: 0, host: '127.0.0.1', maxPlayers: 4, welcome: [] });
    servers.push(server);
    const join = async (name: string, answerReliable = true) => {
      const c = await GameClient.join({ tcpPort: server.ports.tcp ?? 0, name, answerReliable });
      clients.push(c);
      c.hello();
      return c;
    };
    const talker = await join('talker');
    // A bare client: sends states, but knows nothing of acknowledgements.
    const mute = await join('mute', false);
    expect(await talker.tcp.next()).toMatch(/^add ip: .* name: mute in 1$/);
    await waitFor('the server to bind both', () => server.stats().clients.every((c) => c.udp !== null));

    // The talker's chat line, as a reliable message; the server acknowledges it and passes it on to mute on its own link.
    talker.sendState({ x: 0, y: 0, z: 0 }, [], { messages: [{ id: 1, event: { type: 'sendText', text: 'are you there?' } }] });
    const firstSend = clock.now();
    const reliableCopies = () => mute.relayed().filter((r) => (r.packet.link?.messages ?? []).length > 0).length;
    await waitFor('the chat line to reach the mute client', () => reliableCopies() > 0);

    // Time passes in steps; both keep talking, so only the missing acknowledgements can drop mute.
    const removed = () => mute.tcp.lines.find((l) => l.startsWith('removed: '));
    let droppedAt: number | null = null;
    while (droppedAt === null) {
      if (clock.now() - firstSend > 2 * giveUpAfterMs()) throw new Error(`not dropped after ${clock.now() - firstSend} virtual ms; ${reliableCopies()} copies seen`);
      const [states, alive] = [server.stats().packetsIn - server.stats().nodeAlive, server.stats().nodeAlive];
      mute.sendState({ x: 0, y: 0, z: 0 });
      talker.hello(); // the talker is not silent either
      // Polled every millisecond: loopback datagrams take far less, and this runs once per step.
      await waitFor('the server to hear both', () => server.stats().packetsIn - server.stats().nodeAlive > states && server.stats().nodeAlive > alive, 10_000, 1);
      clock.advance(STEP_MS);
      if (server.players().every((p) => p.name !== 'mute')) droppedAt = clock.now();
    }
    const elapsed = droppedAt - firstSend;
    const line = await waitFor('the reason at mute', removed);
    console.log(`reliable: a client that never acknowledges was dropped ${(elapsed / 1000).toFixed(1)} virtual s after the first message, having seen ${reliableCopies()} copies — "${line}"`);
    expect(line).toMatch(new RegExp(`removed: stopped acknowledging reliable messages \\(no acknowledgement after ${RELIABLE_DEFAULTS.maxSends} sends over [\\d.]+ s\\)`));
    // Not before the documented give-up time, and within the server's check of the step it fell due in.
    expect(elapsed).toBeGreaterThanOrEqual(giveUpAfterMs());
    expect(elapsed).toBeLessThanOrEqual(giveUpAfterMs() + 2 * STEP_MS);
    expect(reliableCopies(), 'copies of the line mute was sent').toBe(RELIABLE_DEFAULTS.maxSends);
    await waitFor('removing you', () => mute.tcp.lines.includes('removing you'));
    expect(logged.join('')).toMatch(/stopped acknowledging reliable messages/);
    // The talker, who acknowledges, is still there and hears that the other left.
    await waitFor('talker to hear mute leave', () => talker.tcp.lines.some((l) => /^remove ip: /.test(l)));
    expect(server.players().map((p) => p.name)).toEqual(['talker']);
  });
});
