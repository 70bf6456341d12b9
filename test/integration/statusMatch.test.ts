/**
 * The match on the servers' status pages (HTML and JSON), as an admin reads
 * it: a gameserver and a netgame server show the time left, the limits and
 * each player's kills and deaths; a slotserver, which sees none of its
 * players' game packets, says that the players' games decide the match.
 * Real server processes from the build (out/main/server.js) on loopback;
 * needs `npx electron-vite build` first.
 */
import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatJoin } from '../../src/shared/servers/joinProtocol';
import { objectId, PacketType } from '../../src/shared/wire/types';
import { GameClient } from '../support/gameClient';
import { LineClient } from '../support/lineClient';
import { serverEntry, startServer, stopServers } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';

const clients: GameClient[] = [];
const lines: LineClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
  for (const l of lines.splice(0)) l.socket.destroy();
  stopServers();
});

beforeAll(() => {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npx electron-vite build" (or "npm test", which builds) first`);
});

interface StatusJson {
  match: Record<string, unknown>;
  players: { name: string; kills?: number; deaths?: number }[];
  load?: { overloaded: boolean; stateRates: Record<string, unknown>; tickLateMs: { p50: number; p99: number } };
}

async function status(http: number | undefined): Promise<{ json: StatusJson; html: string }> {
  const json = (await (await fetch(`http://127.0.0.1:${http}/status.json`)).json()) as StatusJson;
  const html = await (await fetch(`http://127.0.0.1:${http}/`)).text();
  return { json, html };
}

async function join(tcpPort: number, name: string): Promise<GameClient> {
  const c = await GameClient.join({ tcpPort, name });
  clients.push(c);
  return c;
}

describe('the match on the status pages', () => {
  it('a gameserver shows each player\'s kills and deaths, the limits, and the countdown once the kill limit ends the match', async () => {
    const server = await startServer(['gameserver', '--name', 'Arena', '--port', '0', '--udp-port', '0', '--http-port', '0', '--kill-limit', '1', '--time-limit', '120']);
    const ace = await join(server.tcp, 'ace');
    const bob = await join(server.tcp, 'bob');
    const before = await status(server.http);
    expect(before.json.match).toMatchObject({ decidedBy: 'server', round: 0, phase: 'playing', killLimit: 1, timeLimitSeconds: 120 });
    expect(before.json.players.map((p) => [p.name, p.kills, p.deaths])).toEqual([['ace', 0, 0], ['bob', 0, 0]]);
    expect(before.html).toMatch(/<p>Match \(round 0\) playing: 1m 5\ds left; kill limit 1, time limit 2m 00s\.<\/p>/);
    // Its load: keeping up, and the state rates it holds (level of detail on by default).
    expect(before.json.load).toMatchObject({ overloaded: false, stateRates: { near: 'every', mid: 10, far: 5 } });
    expect(before.html).toMatch(/<p>Load: keeping up \(near players: every state; mid: 10 states a second; far: 5 states a second\); tick late p50 [\d.]+ ms, p99 [\d.]+ ms over the last minute; datagrams waited to be read p50 [\d.]+ ms, p99 [\d.]+ ms \(longest [\d.]+ ms\)\.<\/p>/);

    // Ace fires at bob, parked in the bolt's path; once bob's game sees it, bob's game says ace destroyed its ship.
    ace.sendState({ x: 0, y: 0, z: 0 });
    bob.sendState({ x: 0, y: 0, z: 60 });
    ace.sendState({ x: 0, y: 0, z: 0 }, [{ type: 'createLaser', id: objectId(ace.slot, 1), pos: { x: 0, y: 0, z: 8 }, vel: { x: 0, y: 0, z: 700 }, ttl: 40 }]);
    await bob.until(() => bob.relayed().some((r) => r.slot === ace.slot && r.packet.events.some((e) => e.type === 'createLaser')), 5000, 'the laser to reach bob');
    bob.sendRaw(bob.packet({ type: PacketType.Reliable, pos: { x: 0, y: 0, z: 60 }, link: { messages: [{ id: 1, event: { type: 'killObject', id: objectId(bob.slot, 0), killerSlot: ace.slot } }] } }));

    const after = await waitFor('the kill on the status page', async () => {
      const s = await status(server.http);
      return s.json.players.find((p) => p.name === 'ace')?.kills === 1 ? s : null;
    });
    expect(after.json.players.map((p) => [p.name, p.kills, p.deaths])).toEqual([['ace', 1, 0], ['bob', 0, 1]]);
    expect(after.json.match).toMatchObject({ phase: 'over', killLimit: 1, timeLimitSeconds: 120 });
    expect(after.json.match.secondsLeft).toBeGreaterThan(0);
    expect(after.json.match.secondsLeft).toBeLessThanOrEqual(10);
    expect(after.html).toMatch(/<p>Match \(round 0\) over: the next begins in \ds \(kill limit 1, time limit 2m 00s\)\.<\/p>/);
    expect(after.html).toContain('<th>slot</th><th>name</th><th>kills</th><th>deaths</th>');
    expect(after.html).toContain(`<td>${ace.slot}</td><td>ace</td><td>1</td><td>0</td>`);
    expect(after.html).toContain(`<td>${bob.slot}</td><td>bob</td><td>0</td><td>1</td>`);
  });

  it('a netgame server shows the match of its master state, with the limits it was given, and each player\'s kills and deaths', async () => {
    const server = await startServer(['netgame', '--name', 'Sync', '--port', '0', '--udp-port', '0', '--http-port', '0', '--kill-limit', '5', '--time-limit', '300']);
    await join(server.tcp, 'cat');
    const s = await status(server.http);
    expect(s.json.match).toMatchObject({ decidedBy: 'server', round: 0, phase: 'playing', killLimit: 5, timeLimitSeconds: 300 });
    expect(s.json.players.map((p) => [p.name, p.kills, p.deaths])).toEqual([['cat', 0, 0]]);
    expect(s.html).toMatch(/<p>Match \(round 0\) playing: (4m \d\ds|5m 00s) left; kill limit 5, time limit 5m 00s\.<\/p>/);
    expect(s.html).toContain('<td>cat</td><td>0</td><td>0</td>');
  });

  it('a slotserver says the players\' games decide the match, since it sees none of their game packets', async () => {
    const server = await startServer(['slotserver', '--name', 'Slots', '--port', '0', '--udp-port', '0', '--http-port', '0']);
    const c = await LineClient.open(server.tcp);
    lines.push(c);
    c.send(formatJoin({ version: '1.0', name: 'dan', os: 'test-os', port: 7003 }));
    expect(await c.next()).toMatch(/accepted/);
    const s = await status(server.http);
    expect(s.json.match).toEqual({ decidedBy: 'players' });
    expect(s.html).toContain("<p>Scores and time left are not shown here: the players&#39; games decide the match between themselves (peer to peer), and a slotserver sees none of their game packets.</p>");
  });
});
