/**
 * Two complete hosts (settings, console, subsystems, p2p protocol) in this
 * process, talking over real UDP sockets on loopback.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor as until } from '../support/waitFor';
import { createHost } from '../../src/node/host/createHost';
import type { HostService } from '../../src/node/host/hostService';
import type { HostEvent } from '../../src/shared/host/contract';
import type { NetDelivery } from '../../src/shared/net/gameLink';
import { objectId } from '../../src/shared/wire/types';
import { DESTROYED_DAMAGE, LASER_DAMAGE, SHIELD_MAX } from '../../src/shared/game';
import { tempDir } from '../support/testRun';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

interface Node {
  host: HostService;
  events: HostEvent[];
  run(line: string): Promise<void>;
  text(): string;
  deliveries(kind: NetDelivery['kind']): NetDelivery[];
}

const started: HostService[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((h) => h.dispose()));
});

async function node(name: string, port: number): Promise<Node> {
  const host = await createHost({
    shell: 'browser',
    appVersion: 'test',
    userDataDir: tempDir('p2p'),
    clientPort: port,
    broadcastAddress: '127.255.255.255',
    lanInterfaces: [],
    log: pino({ level: 'silent' }),
    onQuit: () => undefined,
  });
  started.push(host);
  const events: HostEvent[] = [];
  host.onEvents((b) => events.push(...b));
  const delivered: NetDelivery[] = [];
  host.game?.watch((d) => delivered.push(d));
  await host.command(`name ${name}`);
  return {
    host,
    events,
    run: (line) => host.command(line),
    text: () => events.flatMap((e) => (e.kind === 'console' ? [e.text] : [])).join('\n'),
    deliveries: (kind) => delivered.filter((d) => d.kind === kind),
  };
}



describe('peer-to-peer between two hosts on loopback', () => {
  it('connect finds the other host, both agree on the slots, states and chat flow both ways', async () => {
    const port = await freeUdpPorts(P2P_PORT_SPAN);
    const a = await node('alpha', port);
    const b = await node('bravo', port);
    await a.run('protocol p2p');
    await b.run('protocol p2p');
    await a.run('connect');
    await until('alpha alone in its game', () => /connected to the peer-to-peer game as slot 0/.test(a.text()));
    await b.run('connect');
    await until('bravo connected', () => /connected to the peer-to-peer game as slot 1/.test(b.text()));
    const lastPlayers = (n: Node) => n.deliveries('players').at(-1) as Extract<NetDelivery, { kind: 'players' }> | undefined;
    await until('both see two joined players', () => [a, b].every((n) => lastPlayers(n)?.players.filter((p) => p.joined).length === 2));
    expect(lastPlayers(a)?.players.map((p) => [p.slot, p.name])).toEqual([[0, 'alpha'], [1, 'bravo']]);
    expect(lastPlayers(b)?.players.map((p) => [p.slot, p.name])).toEqual([[0, 'alpha'], [1, 'bravo']]);

    // Alpha's player thrusts and fires: bravo's host receives its ship as states of slot 0, and its lasers.
    a.host.frame({ frame: 1, tick: 0, input: { thrust: 1, yaw: 0, pitch: 0, roll: 0, fire: true } });
    const states = await until('states from alpha', () => {
      const got = b.deliveries('state').filter((d) => d.kind === 'state' && d.slot === 0);
      return got.length >= 5 ? got : undefined;
    });
    expect(states.some((d) => d.kind === 'state' && d.state.vel.z < 0)).toBe(true);
    await until('alpha laser at bravo', () => b.deliveries('event').some((d) => d.kind === 'event' && d.slot === 0 && d.event.type === 'createLaser'));
    // …and draws alpha's ship in its world, in alpha's slot.
    await until('alpha in bravo\'s world', () => b.events.some((e) => e.kind === 'world' && e.view.ships.some((s) => s.slot === 0) && e.view.localSlot === 1));

    // Lasers from alpha hit bravo's ship in bravo's game (the victim decides): alpha hears who shot it down.
    const target = b.host.game!.game.localShip!.pos;
    // Enough bolts for a full shield and hull, with two to spare for the shield's recharge.
    for (let i = 0; i < Math.ceil((SHIELD_MAX + DESTROYED_DAMAGE) / LASER_DAMAGE) + 2; i++) {
      b.host.game!.driver.deliver({ kind: 'event', slot: 0, event: { type: 'createLaser', id: objectId(0, 500 + i), pos: { x: target.x, y: target.y, z: target.z - 30 - 4 * i }, vel: { x: 0, y: 0, z: 300 }, ttl: 40 } });
    }
    await until('the kill at alpha', () => /bravo was shot down by alpha/.test(a.text()));

    await b.run('say hello alpha');
    await until('chat at alpha', () => a.deliveries('chat').some((d) => d.kind === 'chat' && d.from === 'bravo' && d.text === 'hello alpha'));
    expect(a.text()).toContain('bravo: hello alpha');
    // Plain text is chat too.
    await a.run('nice to see you');
    await until('plain-text chat at bravo', () => /alpha: nice to see you/.test(b.text()));

    // players lists both with a measured round trip (pings go out once a second).
    await until('players with ping', async () => {
      await b.run('players');
      return /0\s+alpha\s+127\.0\.0\.1:\d+\s+\d+ ms\s+joined/.test(b.text());
    }, 10_000, 250);
    expect(b.text()).toMatch(/1\s+bravo\s+127\.0\.0\.1:\d+\s+-\s+joined \(you\)/);
    // …and where the common game time comes from: bravo (slot 1) synchronised with alpha (slot 0), the reference.
    expect(b.text()).toMatch(/clock: synchronised with alpha, offset -?\d+\.\d ms ± \d+\.\d+, round trip \d+ ms/);
    expect(b.text()).toMatch(/reliable messages: 0 awaiting acknowledgement/);
    await a.run('players');
    await until('alpha lists the clock', () => /clock: this machine is the game's time reference/.test(a.text()));

    await b.run('disconnect');
    await until('alpha sees bravo leave', () => /^bravo left$/m.test(a.text()));
  });

  it('a name change reaches the other player', async () => {
    const port = await freeUdpPorts(P2P_PORT_SPAN);
    const a = await node('alpha', port);
    const b = await node('bravo', port);
    for (const n of [a, b]) await n.run('protocol p2p');
    await a.run('connect');
    await until('alpha connected', () => /as slot 0/.test(a.text()));
    await b.run('connect');
    await until('bravo connected', () => /as slot 1/.test(b.text()));
    await a.run('name goose');
    await until('bravo sees the new name', () =>
      b.deliveries('players').some((d) => d.kind === 'players' && d.players.some((p) => p.slot === 0 && p.name === 'goose')),
    );
  });

  it('a second player called pilot plays as pilot-2 and is told so; the first keeps the name and hears nothing of it', async () => {
    const port = await freeUdpPorts(P2P_PORT_SPAN);
    const a = await node('pilot', port);
    const b = await node('pilot', port);
    for (const n of [a, b]) await n.run('protocol p2p');
    await a.run('connect');
    await until('the first pilot connected', () => /as slot 0/.test(a.text()));
    await b.run('connect');
    await until('the second is told', () => /pilot \(slot 0\) already has the name pilot in this game: you play as pilot-2 here/.test(b.text()));
    const names = (n: Node) => (n.deliveries('players').at(-1) as Extract<NetDelivery, { kind: 'players' }> | undefined)?.players.map((p) => `${p.slot}:${p.name}`).join(' ');
    await until('both list pilot and pilot-2', () => names(a) === '0:pilot 1:pilot-2' && names(b) === '0:pilot 1:pilot-2');
    // Chat shows the name the player has in this game.
    await b.run('say hi');
    await until('chat from pilot-2', () => /pilot-2: hi/.test(a.text()));
    // Asking for the taken name again while connected gets the same answer.
    await b.run('name PILOT');
    await until('told again', () => /already has the name PILOT in this game: you play as PILOT-2 here/.test(b.text()));
    await until('the first sees PILOT-2', () => names(a) === '0:pilot 1:PILOT-2');
    expect(a.text()).not.toMatch(/already has the name/);
  });
});
