/**
 * Reliable messages and time sync through real servers, end to end: two
 * full hosts on loopback whose links are conditioned (20 % loss, 10 %
 * duplication, 10 % reordering, a little lag) play through a slotserver and
 * a gameserver. Every chat line must arrive exactly once, the players join
 * only after their clocks are synchronised, and received ship states carry
 * their age by common game time. The p2p case runs on a memory LAN and a
 * virtual clock (test/unit/session/reliability.test.ts).
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startGameserver } from '../../src/node/servers/game/gameserver';
import { startSlotserver } from '../../src/node/servers/slot/slotserver';
import type { RunningServer } from '../../src/node/servers/common/types';
import { startTestHost, until, type TestHost } from '../support/testHost';

const hosts: TestHost[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const log = pino({ level: 'silent' });

async function badLinkPair(protocol: string): Promise<[TestHost, TestHost]> {
  const pair: TestHost[] = [];
  for (const name of ['alpha', 'bravo']) {
    const h = await startTestHost(name, { protocol });
    hosts.push(h);
    // net_verbose: the clock's figures are printed (what these tests read).
    for (const line of ['net_verbose 1', 'net_fakelag 20', 'net_fakejitter 10', 'net_fakeloss 20', 'net_fakedup 10', 'net_fakereorder 10']) await h.run(line);
    pair.push(h);
  }
  return pair as [TestHost, TestHost];
}

const clockLine = (h: TestHost) => h.text().split('\n').filter((l) => /clock/.test(l)).join(' | ');

/** Both fly for a while; then alpha says `lines` chat lines; bravo must hear each exactly once. */
async function chatExactlyOnce(a: TestHost, b: TestHost, label: string, lines = 40): Promise<void> {
  // Both fly (each host runs its game) until bravo has states from alpha.
  a.host.frame({ frame: 1, tick: 0, input: { thrust: 1, yaw: 0, pitch: 0, roll: 0, fire: false } });
  b.host.frame({ frame: 1, tick: 0, input: { thrust: 1, yaw: 0.5, pitch: 0, roll: 0, fire: false } });
  await until(`states from alpha at bravo (${label})`, () => b.states(0) >= 10, 30_000);
  const t0 = performance.now();
  for (let i = 0; i < lines; i++) await a.run(`say line ${i}`);
  const heard = () => b.deliveries('chat').filter((c) => c.from === 'alpha').map((c) => c.text);
  await until(`all ${lines} lines at bravo (${label})`, () => new Set(heard()).size === lines, 30_000);
  // Resends may still be on their way. Once alpha has every line acknowledged it sends no more; a last line
  // then follows whatever copies are still in flight, and once it too is heard and acknowledged, a line
  // delivered twice would show.
  const acked = async () => {
    await a.run('players');
    return /reliable messages: 0 awaiting acknowledgement/.test(a.text().split('\n').slice(-12).join('\n'));
  };
  await until(`alpha to have every line acknowledged (${label})`, acked, 30_000, 100);
  await a.run('say last line');
  await until(`the last line at bravo (${label})`, () => heard().includes('last line'), 30_000);
  await until(`alpha to have the last line acknowledged (${label})`, acked, 30_000, 100);
  const got = heard();
  expect(got.length).toBe(lines + 1);
  expect(new Set(got)).toEqual(new Set([...Array.from({ length: lines }, (_, i) => `line ${i}`), 'last line']));
  const states = b.deliveries('state');
  const ages = states.flatMap((d) => (d.ageMs === undefined ? [] : [d.ageMs]));
  expect(ages.length, `states with an age at bravo (of ${states.length}); clocks: ${clockLine(a)} / ${clockLine(b)}`).toBeGreaterThan(0);
  const sorted = [...ages].sort((x, y) => x - y);
  console.log(
    `reliable ${label}: ${lines} chat lines over 20 % loss / 10 % dup / 10 % reorder, all delivered once in ${Math.round(performance.now() - t0)} ms; ` +
      `state age by common time p50 ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted[sorted.length - 1]} ms (lag 20 ± 10 ms per hop)`,
  );
  // Lag is 20 ± 10 ms each way: an age of a second would mean the clocks disagree (a guard, not a target).
  expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(1000);
}

describe('reliable messages and time sync in every protocol', () => {
  it('slotserver: chat arrives exactly once; both synchronise with the slotserver time port before joining', async () => {
    const server = await startSlotserver({ name: 'Slots', log, port: 0, udpPort: 0, host: '127.0.0.1', maxPlayers: 8, welcome: [] });
    servers.push(server);
    const [a, b] = await badLinkPair('slotserver');
    for (const h of [a, b]) {
      await h.run(`connect 127.0.0.1:${server.ports.tcp}`);
      await until('joined', () => /clock synchronised with/.test(h.text()), 15_000);
    }
    await until('both joined', () => b.deliveries('players').some((d) => d.players.length === 2 && d.players.every((p) => p.joined)), 15_000);
    await chatExactlyOnce(a, b, 'slotserver');
  });

  it('gameserver: chat arrives exactly once through the server, which acknowledges and resends on its own links', async () => {
    const server = await startGameserver({ name: 'Relay', log, port: 0, udpPort: 0, host: '127.0.0.1', maxPlayers: 8, welcome: [] });
    servers.push(server);
    const [a, b] = await badLinkPair('gameserver');
    for (const h of [a, b]) {
      await h.run(`connect 127.0.0.1:${server.ports.tcp}`);
      await until('synchronised', () => /clock synchronised with/.test(h.text()), 15_000);
    }
    await until('both joined', () => b.deliveries('players').some((d) => d.players.length === 2 && d.players.every((p) => p.joined)), 15_000);
    await chatExactlyOnce(a, b, 'gameserver');
    // Everything the honest clients sent (game, reliable-only packets, pings and pongs) carried the token and was expected.
    const drops = server.stats().drops;
    expect(drops['no-token'] ?? 0).toBe(0);
    expect(drops['unexpected-type'] ?? 0).toBe(0);
    // The clients measure their round trip to the server (the net graph's ping).
    await a.run('players');
    await until('the clock line', () => /clock: synchronised with/.test(a.text()));
  });
});
