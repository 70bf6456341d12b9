/**
 * The match over real games on loopback (hosts with real UDP sockets; a
 * peer-to-peer game, and a gameserver game through an in-process server): a
 * kill — lasers one player's game fires, which hit in the victim's game —
 * reaches every scoreboard; a player who
 * drops and rejoins under the same name keeps its score; a player joining
 * mid-match hears the match authority (the lowest joined slot) and sees the
 * same scores and time left as the others.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor as until } from '../support/waitFor';
import { createHost } from '../../src/node/host/createHost';
import type { HostService } from '../../src/node/host/hostService';
import { startGameserver, type Gameserver } from '../../src/node/servers/game/gameserver';
import { FIRE_COOLDOWN_TICKS, LASER_SPEED, NOSE_OFFSET, type ClientGame } from '../../src/shared/game';
import { tempDir } from '../support/testRun';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

const started: HostService[] = [];
const servers: Gameserver[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((h) => h.dispose()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const consoles = new Map<HostService, string[]>();
/** The last slot table each host's game got: names by slot. */
const tables = new Map<HostService, Map<number, string>>();
const said = (h: HostService): string => (consoles.get(h) ?? []).join('\n');

async function host(name: string, port: number, protocol: 'p2p' | 'gameserver'): Promise<HostService> {
  const h = await createHost({
    shell: 'browser',
    appVersion: 'test',
    userDataDir: tempDir('match'),
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
  h.game!.watch((d) => {
    if (d.kind === 'players') tables.set(h, new Map(d.players.filter((p) => p.joined).map((p) => [p.slot, p.name])));
  });
  await h.command(`name ${name}`);
  await h.command(`protocol ${protocol}`);
  return h;
}

const game = (h: HostService): ClientGame => h.game!.game;
/** The scoreboard by name, from the last slot table `h` got. */
function board(h: HostService): string {
  const names = tables.get(h) ?? new Map<number, string>();
  return JSON.stringify(game(h).curr.scores.map((s) => [names.get(s.slot) ?? `?${s.slot}`, s.kills, s.deaths]).sort());
}
const flying = (h: HostService): number => game(h).curr.ships.filter((s) => s.respawnIn === 0).length;

/**
 * The shooter's game fires lasers from its ship's nose at the victim's ship,
 * one per gun cooldown (as a player holding the trigger would), until the
 * victim's game says its ship was destroyed. They travel the real way
 * (through the server in a gameserver game, which sees them and so believes
 * the kill); the victim's game decides the hits.
 */
async function shootDown(shooter: HostService, victim: HostService): Promise<void> {
  const from = game(shooter).localShip!.pos;
  const to = game(victim).localShip!.pos;
  const d = { x: to.x - from.x, y: to.y - from.y, z: to.z - from.z };
  const len = Math.hypot(d.x, d.y, d.z);
  const dir = { x: d.x / len, y: d.y / len, z: d.z / len };
  const driver = shooter.game!.driver;
  for (let i = 0; !game(victim).dead; i++) {
    if (i > 40) throw new Error('the victim survived 40 shots');
    const pos = { x: from.x + dir.x * NOSE_OFFSET, y: from.y + dir.y * NOSE_OFFSET, z: from.z + dir.z * NOSE_OFFSET };
    driver.events.createLaser(900 + i, pos, { x: dir.x * LASER_SPEED, y: dir.y * LASER_SPEED, z: dir.z * LASER_SPEED }, 40, driver.now());
    // One shot per gun cooldown, counted in the shooter's own ticks.
    const t = game(shooter).curr.tick + FIRE_COOLDOWN_TICKS;
    await until('the gun to cool down', () => game(shooter).curr.tick >= t);
  }
}

describe.each(['p2p', 'gameserver'] as const)('the match in a %s game', (protocol) => {
  it('a kill reaches every scoreboard, a rejoining player keeps its score, a newcomer sees the same scores and time left', { timeout: 60_000 }, async () => {
    const port = await freeUdpPorts(P2P_PORT_SPAN);
    let target = '';
    if (protocol === 'gameserver') {
      const gs = await startGameserver({ name: 'Arena', log: pino({ level: 'silent' }), port: 0, udpPort: 0, host: '127.0.0.1', maxPlayers: 8, welcome: [] });
      servers.push(gs);
      target = ` 127.0.0.1:${gs.ports.tcp}`;
    }
    const joinedAs = (slot: number) => (protocol === 'p2p' ? new RegExp(`connected to the peer-to-peer game as slot ${slot}`) : new RegExp(`joined gameserver "Arena" as slot ${slot}`));
    const alpha = await host('alpha', port, protocol);
    const bravo = await host('bravo', port, protocol);
    await alpha.command(`connect${target}`);
    await until('alpha in the game', () => joinedAs(0).test(said(alpha)));
    await bravo.command(`connect${target}`);
    await until('both see two ships', () => game(bravo).localSlot === 1 && flying(alpha) === 2 && flying(bravo) === 2);

    await shootDown(alpha, bravo);
    const afterKill = JSON.stringify([['alpha', 1, 0], ['bravo', 0, 1]]);
    await until('the kill on both scoreboards', () => board(alpha) === afterKill && board(bravo) === afterKill, 10_000);

    // Bravo drops; charlie joins mid-match, in the slot bravo left, and hears the match from the authority.
    await bravo.command('disconnect');
    await until('alpha alone', () => flying(alpha) === 1);
    const charlie = await host('charlie', port, protocol);
    await charlie.command(`connect${target}`);
    await until('charlie in slot 1', () => joinedAs(1).test(said(charlie)));
    const withoutBravo = JSON.stringify([['alpha', 1, 0]]);
    await until('charlie hears the match, starting from zero', () => board(charlie) === withoutBravo && board(alpha) === withoutBravo, 15_000);

    // Bravo comes back under the same name, in another slot: the authority (alpha) gives its score back.
    await bravo.command(`connect${target}`);
    await until('bravo in slot 2', () => joinedAs(2).test(said(bravo)));
    await until('bravo back with its score, everywhere', () => [alpha, bravo, charlie].every((h) => board(h) === afterKill && flying(h) === 3), 15_000);
    const left = [alpha, bravo, charlie].map((h) => game(h).curr.match.ticksLeft);
    console.log(`${protocol} match: scoreboards ${board(alpha)} on all three (bravo rejoined); ticks left alpha ${left[0]}, bravo ${left[1]}, charlie ${left[2]}`);
    // Time left agrees within a second (40 ticks) on every node: the same clock, aged by each packet.
    expect(Math.max(...left) - Math.min(...left)).toBeLessThanOrEqual(40);
    expect(game(charlie).curr.match.killLimit).toBe(game(alpha).curr.match.killLimit);
    // Honest play: the gameserver struck nobody (its guard saw alpha's lasers near bravo, so it believed the kill).
    if (protocol === 'gameserver') expect(servers[0]!.stats().strikes).toEqual({});
  });
});
