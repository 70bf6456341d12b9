/**
 * Valve's A2S server query on a gameserver's UDP port, over real sockets on
 * loopback, read byte for byte per the published format (test/support/
 * a2sClient.ts, written apart from the server's encoder): INFO, PLAYER and
 * RULES each need the challenge the server hands out, and then tell the
 * server's name, map, players, seats, version and rules as its status page
 * does; a challenge is bound to its source; every reply to an unchallenged
 * query is no larger than the query; malformed queries get no answer and
 * are counted.
 */
import { describe, expect, it } from 'vitest';
import { APP_VERSION } from '../../src/node/version';
import { WIRE_VERSION } from '../../src/shared/wire/types';
import { A2sClient, challengedRequest, infoRequest, INFO_REQUEST, Reader } from '../support/a2sClient';
import { useGameservers } from '../support/gameserverFixture';

const { SERVER, server, players } = useGameservers();
const clients: A2sClient[] = [];
const open = async (port: number, local?: string) => {
  const c = await A2sClient.open(port, local);
  clients.push(c);
  return c;
};

describe('A2S queries at a gameserver', () => {
  it('INFO with the challenge it hands out: name, map, folder, game, players, seats, bots, type, environment, version, join port', async () => {
    const s = await server({ maxPlayers: 12 });
    await players(s, ['ace', 'bob']);
    const q = await open(s.ports.udp ?? 0);
    try {
      const first = await q.ask(infoRequest());
      expect(first.length).toBe(9);
      expect(first.length).toBeLessThanOrEqual(INFO_REQUEST.length);
      const info = new Reader(await q.ask(infoRequest(A2sClient.challengeOf(first))));
      expect(info.i32()).toBe(-1);
      expect(String.fromCharCode(info.u8())).toBe('I');
      expect(info.u8()).toBe(17);
      expect([info.str(), info.str(), info.str(), info.str()]).toEqual([SERVER, 'Sol', 'starlane', 'Starlane']);
      expect(info.i16()).toBe(0);
      expect([info.u8(), info.u8(), info.u8()]).toEqual([2, 12, 0]);
      expect(String.fromCharCode(info.u8())).toBe('d');
      expect(String.fromCharCode(info.u8())).toBe(process.platform === 'win32' ? 'w' : process.platform === 'darwin' ? 'm' : 'l');
      expect([info.u8(), info.u8()]).toEqual([0, 0]);
      expect(info.str()).toBe(APP_VERSION);
      expect(info.u8()).toBe(0x80);
      expect(info.b.readUInt16LE(info.at)).toBe(s.ports.tcp);
      info.at += 2;
      expect(info.left).toBe(0);
    } finally {
      for (const c of clients.splice(0)) c.close();
    }
  });

  it('PLAYER and RULES with the challenge: each player\'s name, kills and time on the server; the match\'s rules', async () => {
    const s = await server({ killLimit: 7 });
    await players(s, ['ace', 'bob']);
    const q = await open(s.ports.udp ?? 0);
    try {
      const challenge = A2sClient.challengeOf(await q.ask(challengedRequest('U', -1)));
      const p = new Reader(await q.ask(challengedRequest('U', challenge)));
      expect([p.i32(), String.fromCharCode(p.u8()), p.u8()]).toEqual([-1, 'D', 2]);
      const rows = [0, 1].map(() => ({ index: p.u8(), name: p.str(), score: p.i32(), seconds: p.f32() }));
      expect(rows.map((r) => [r.index, r.name, r.score])).toEqual([[0, 'ace', 0], [1, 'bob', 0]]);
      for (const r of rows) expect(r.seconds).toBeGreaterThanOrEqual(0);
      expect(p.left).toBe(0);
      const r = new Reader(await q.ask(challengedRequest('V', challenge)));
      expect([r.i32(), String.fromCharCode(r.u8())]).toEqual([-1, 'E']);
      const n = r.i16();
      const rules = new Map(Array.from({ length: n }, () => [r.str(), r.str()] as const));
      expect(r.left).toBe(0);
      expect(Object.fromEntries(rules)).toMatchObject({ protocol: 'gameserver', version: APP_VERSION, wire: String(WIRE_VERSION), join: `tcp ${s.ports.tcp}`, kill_limit: '7', spectators: '0/32' });
      expect(s.stats().answered).toMatchObject({ a2s: 2, a2sChallenges: 1 });
    } finally {
      for (const c of clients.splice(0)) c.close();
    }
  });

  it('a challenge is good only from the source it was handed to, and no unchallenged reply is larger than its query', async () => {
    const s = await server();
    const a = await open(s.ports.udp ?? 0);
    const b = await open(s.ports.udp ?? 0, '127.0.0.2');
    try {
      const mine = A2sClient.challengeOf(await a.ask(challengedRequest('V', -1)));
      // Another source sending a's challenge is handed a challenge of its own, not the rules.
      const other = await b.ask(challengedRequest('V', mine));
      expect(other.length).toBe(9);
      expect(A2sClient.challengeOf(other)).not.toBe(mine);
      // Wrong, stale-looking or missing challenges: every reply is the 9-byte challenge, never more than the query.
      let largest = 0;
      for (const request of [infoRequest(), infoRequest(12345), challengedRequest('U', -1), challengedRequest('U', 0), challengedRequest('V', mine ^ 1), challengedRequest('V', 0x7fffffff)]) {
        const reply = await b.ask(request);
        expect(reply.length).toBeLessThanOrEqual(request.length);
        largest = Math.max(largest, reply.length / request.length);
      }
      console.log(`A2S: the largest reply to an unchallenged query is ${largest.toFixed(2)}× its query`);
    } finally {
      for (const c of clients.splice(0)) c.close();
    }
  });

  it('malformed queries get no answer and are counted; the server answers the next good one', async () => {
    const s = await server();
    const q = await open(s.ports.udp ?? 0);
    try {
      const bad = [
        Buffer.from([0xff, 0xff, 0xff, 0xff, 0x54, 0x53]), // INFO cut short
        Buffer.from([0xff, 0xff, 0xff, 0xff, 0x54, ...Buffer.from('Source Engine Qu3ry\0')]), // not the query string
        Buffer.from([0xff, 0xff, 0xff, 0xff, 0x55, 1, 2]), // PLAYER without its challenge
        Buffer.from([0xff, 0xff, 0xff, 0xff, 0x58, 0, 0, 0, 0]), // no such query
        Buffer.alloc(200, 0xff), // oversized
      ];
      for (const b of bad) q.send(b);
      // Loopback keeps the order: the next reply is the good query's challenge, so none came for the bad ones.
      expect((await q.ask(challengedRequest('U', -1))).length).toBe(9);
      const drops = s.stats().drops;
      expect(drops['bad-a2s']).toBe(bad.length);
    } finally {
      for (const c of clients.splice(0)) c.close();
    }
  });
});
