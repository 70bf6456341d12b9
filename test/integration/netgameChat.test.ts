/**
 * Chat and names in a netgame, end to end: three full hosts in this process
 * (real UDP on loopback, each link losing 5 % of its datagrams both ways
 * through the link conditioner) join a netgame server with real sockets.
 * Every player's chat lines reach the other two exactly once — in their
 * console and their HUD chat — through the server, which acknowledges each
 * and passes it on with its own reliable link per player; the sender sees
 * its own line once (its HUD), never echoed back. A player who renames
 * itself is seen under the new name in everyone's slot table and chat.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startNetgameServer, type RunningNetgameServer } from '../../src/node/servers/netgame/netgameServer';
import { startTestHost, until, type TestHost } from '../support/testHost';

const hosts: TestHost[] = [];
const servers: RunningNetgameServer[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const LINES = 20;
const NAMES = ['alpha', 'bravo', 'charlie'] as const;

/** Chat lines `h` got from `from` (its HUD chat: every delivery, the sender's own line included). */
const heard = (h: TestHost, from: string) => h.deliveries('chat').filter((c) => c.from === from).map((c) => c.text);
/** Chat lines from `from` printed in `h`'s console. */
const printed = (h: TestHost, from: string) => h.text().split('\n').filter((l) => l.startsWith(`${from}: `)).map((l) => l.slice(from.length + 2));
/** `h`'s newest slot table as `slot:name:joined`. */
const table = (h: TestHost) => (h.deliveries('players').at(-1)?.players ?? []).map((p) => `${p.slot}:${p.name}:${p.joined ? 'joined' : '-'}`).join(',');

/** Whether `h` has every reliable message it sent acknowledged (by the server). */
async function allAcked(h: TestHost): Promise<boolean> {
  await h.run('players');
  return /reliable messages: 0 awaiting acknowledgement/.test(h.text().split('\n').slice(-12).join('\n'));
}

/** Waits until every player and the server have every reliable message acknowledged: no copy is on its way any more. */
async function settled(server: RunningNetgameServer, players: TestHost[], what: string): Promise<void> {
  for (const h of players) await until(`${what}: ${NAMES[players.indexOf(h)]} has its messages acknowledged`, () => allAcked(h), 30_000, 100);
  await until(`${what}: the server has its messages acknowledged`, () => server.stats().clients.every((c) => c.reliablePending === 0), 30_000);
}

describe('chat in a netgame', () => {
  it('between three players over a 5 % loss link arrives exactly once everywhere, and a name change reaches the others', { timeout: 90_000 }, async () => {
    const server = await startNetgameServer({ name: 'Chat', log: pino({ level: 'silent' }), host: '127.0.0.1', port: 0, udpPort: 0 });
    servers.push(server);
    const players: TestHost[] = [];
    for (const name of NAMES) {
      const h = await startTestHost(name, { protocol: 'netgame' });
      hosts.push(h);
      players.push(h);
      await h.run('net_fakeloss 5');
      await h.run(`connect 127.0.0.1:${server.ports.tcp}`);
    }
    const [alpha, bravo, charlie] = players as [TestHost, TestHost, TestHost];
    await until('all three activated and joined in every table', () => players.every((h) => /^0:\w+:joined,1:\w+:joined,2:\w+:joined$/.test(table(h))), 30_000);

    for (const h of players) expect(h.text()).toMatch(/link conditioned \(testing\): loss 5%/);
    // Round by round (each line in datagrams of its own, so the loss meets many of them): every player says a line, and every line reaches everyone.
    const t0 = performance.now();
    for (let i = 0; i < LINES; i++) {
      for (const [k, h] of players.entries()) await h.run(`say ${NAMES[k]} line ${i}`);
      for (const h of players) for (const name of NAMES) await until(`${name} line ${i} at ${NAMES[players.indexOf(h)]}`, () => heard(h, name).includes(`${name} line ${i}`), 30_000);
    }
    const lines = (name: string) => Array.from({ length: LINES }, (_, i) => `${name} line ${i}`);
    const allMs = Math.round(performance.now() - t0);
    await settled(server, players, 'after the chat');

    // A new name: the join server takes it, and everyone's table and chat follow.
    await charlie.run('name charlie2');
    await until('charlie2 in the server\'s table', () => server.players().some((p) => p.name === 'charlie2'));
    for (const h of [alpha, bravo]) await until(`charlie2 in ${NAMES[players.indexOf(h)]}'s table`, () => /2:charlie2:joined/.test(table(h)), 15_000);
    await charlie.run('say renamed and still here');
    for (const h of [alpha, bravo]) await until('the renamed player\'s line', () => heard(h, 'charlie2').includes('renamed and still here'), 15_000);
    await settled(server, players, 'after the rename');

    const counts: string[] = [];
    for (const [k, h] of players.entries()) {
      const me = NAMES[k] as string;
      for (const name of NAMES) {
        // The HUD chat: every line once, one's own included (shown at once, not echoed back).
        expect(heard(h, name).sort(), `${name}'s lines in ${me}'s HUD chat`).toEqual(lines(name).sort());
        // The console: the others' lines once; one's own is not printed back to oneself.
        expect(printed(h, name).sort(), `${name}'s lines in ${me}'s console`).toEqual(name === me ? [] : lines(name).sort());
      }
      counts.push(`${me} ${NAMES.map((n) => heard(h, n).length).join('+')}`);
    }
    for (const h of [alpha, bravo]) {
      expect(heard(h, 'charlie2')).toEqual(['renamed and still here']);
      expect(table(h)).toBe('0:alpha:joined,1:bravo:joined,2:charlie2:joined');
    }
    const drops = server.stats().drops;
    // What the players' links resent (their last `players` listing): the loss was real.
    const resent = players.map((h, k) => `${NAMES[k]} ${[...h.text().matchAll(/(\d+) resent, (\d+) duplicate copies dropped/g)].at(-1)?.slice(1, 3).join(' resent, ') ?? '?'} duplicates dropped`);
    console.log(`netgame chat over 5 % loss: ${3 * LINES} lines in ${LINES} rounds, all at all three in ${allMs} ms; HUD lines per player (alpha+bravo+charlie): ${counts.join(', ')}; rename seen as "charlie2" by both others; links: ${resent.join('; ')}; server drops ${JSON.stringify(drops)}`);
    expect(drops['foreign-event'] ?? 0).toBe(0);
    expect(drops['foreign-reliable'] ?? 0).toBe(0);
  });
});
