/**
 * The match over a real peer-to-peer game on loopback (three hosts, real UDP
 * sockets): a kill announced by the victim's game reaches every scoreboard,
 * and a player joining mid-match hears the match authority (slot 0) and sees
 * the same scores and time left as the others.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor as until } from '../support/waitFor';
import { createHost } from '../../src/node/host/createHost';
import type { HostService } from '../../src/node/host/hostService';
import { DESTROYED_DAMAGE, LASER_DAMAGE, SHIELD_MAX, type ClientGame } from '../../src/shared/game';
import { objectId } from '../../src/shared/wire/types';
import { tempDir } from '../support/testRun';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

const started: HostService[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((h) => h.dispose()));
});

const consoles = new Map<HostService, string[]>();
const said = (h: HostService): string => (consoles.get(h) ?? []).join('\n');

async function host(name: string, port: number): Promise<HostService> {
  const h = await createHost({
    shell: 'browser',
    appVersion: 'test',
    userDataDir: tempDir('p2p-match'),
    clientPort: port,
    broadcastAddress: '127.255.255.255',
    lanInterfaces: [],
    log: pino({ level: 'silent' }),
    onQuit: () => undefined,
  });
  started.push(h);
  const lines: string[] = [];
  consoles.set(h, lines);
  h.onEvents((batch) => lines.push(...batch.flatMap((e) => (e.kind === 'console' ? [e.text] : []))));
  await h.command(`name ${name}`);
  await h.command('protocol p2p');
  return h;
}

const game = (h: HostService): ClientGame => h.game!.game;
const scoreboard = (h: HostService): string => JSON.stringify(game(h).curr.scores);
const joinedCount = (h: HostService): number => game(h).curr.ships.filter((s) => s.respawnIn === 0).length;

describe('the match in a peer-to-peer game', () => {
  it('a kill reaches every scoreboard, and a player joining mid-match sees the same scores and time left', async () => {
    const port = await freeUdpPorts(P2P_PORT_SPAN);
    const alpha = await host('alpha', port);
    const bravo = await host('bravo', port);
    await alpha.command('connect');
    await until('alpha in its game', () => /connected to the peer-to-peer game as slot 0/.test(said(alpha)));
    await bravo.command('connect');
    await until('both see two ships', () => game(bravo).localSlot === 1 && joinedCount(alpha) === 2 && joinedCount(bravo) === 2);

    // Alpha's lasers (as bravo's game receives them) shoot bravo down: bravo's game decides, and says so.
    const target = game(bravo).localShip!.pos;
    for (let i = 0; i < Math.ceil((SHIELD_MAX + DESTROYED_DAMAGE) / LASER_DAMAGE) + 2; i++) {
      bravo.game!.driver.deliver({ kind: 'event', slot: 0, event: { type: 'createLaser', id: objectId(0, 700 + i), pos: { x: target.x, y: target.y, z: target.z - 30 - 4 * i }, vel: { x: 0, y: 0, z: 300 }, ttl: 40 } });
    }
    const expected = JSON.stringify([{ slot: 0, kills: 1, deaths: 0 }, { slot: 1, kills: 0, deaths: 1 }]);
    await until('the kill on both scoreboards', () => scoreboard(alpha) === expected && scoreboard(bravo) === expected, 10_000);

    // Charlie joins mid-match: the authority tells it the match at once.
    const charlie = await host('charlie', port);
    await charlie.command('connect');
    await until('charlie in the game', () => /connected to the peer-to-peer game as slot 2/.test(said(charlie)));
    await until('charlie hears the match', () => scoreboard(charlie) === expected, 10_000);
    const left = [alpha, bravo, charlie].map((h) => game(h).curr.match.ticksLeft);
    console.log(`p2p match: scoreboards ${scoreboard(alpha)} on all three; ticks left alpha ${left[0]}, bravo ${left[1]}, charlie ${left[2]}`);
    // Time left agrees within a second (40 ticks) on every node: the same clock, aged by each packet.
    expect(Math.max(...left) - Math.min(...left)).toBeLessThanOrEqual(40);
    expect(game(charlie).curr.match.killLimit).toBe(game(alpha).curr.match.killLimit);
  });
});
