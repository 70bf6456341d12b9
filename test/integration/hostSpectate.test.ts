/**
 * Watching a game from a whole host: `spectate host:port` from offline
 * switches to the gameserver protocol and takes a spectator's seat there
 * (no slot, no ship): the world shows both players' ships, the camera
 * follows the first and `camera follow next` the other, with the followed
 * player's HUD; join and say are refused with a clear line; the server
 * lists the spectator apart from its players and forgets it at disconnect.
 * In a p2p game, spectate connects without joining and shows the others'
 * ships, not its own.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startGameserver } from '../../src/node/servers/game/gameserver';
import { startNetgameServer } from '../../src/node/servers/netgame/netgameServer';
import type { WorldView } from '../../src/shared/game/view';
import { NO_SLOT } from '../../src/shared/wire/types';
import { hostsAndServersPerTest } from '../support/hostsAndServers';
import { startTestHost, twoInOneLanGame, until, type TestHost } from '../support/testHost';
import { afterEach } from 'vitest';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

const { node, servers } = hostsAndServersPerTest('gameserver');
const extra: TestHost[] = [];
afterEach(async () => {
  await Promise.all(extra.splice(0).map((h) => h.host.dispose()));
});

const views = (h: TestHost): WorldView[] => h.events.flatMap((e) => (e.kind === 'world' ? [e.view] : []));
const lastView = (h: TestHost): WorldView | undefined => views(h).at(-1);
/** Runs a console line; its output reaches the events on the next turn of the loop. */
async function run(h: TestHost, line: string): Promise<void> {
  await h.run(line);
  await new Promise((r) => setImmediate(r));
}
const statusLine = (h: TestHost): string => {
  const nets = h.events.flatMap((e) => (e.kind === 'net' && e.delivery.kind === 'players' ? [e.delivery] : []));
  return nets.at(-1)?.status ?? '';
};

describe('spectating from a host', () => {
  it('spectate host:port takes a spectator seat at a gameserver: both ships shown, the camera follows either, join and say refused', { timeout: 60_000 }, async () => {
    const server = await startGameserver({ name: 'Watched', host: '127.0.0.1', port: 0, udpPort: 0, log: pino({ level: 'silent' }) });
    servers.push(server);
    const target = `127.0.0.1:${server.ports.tcp}`;
    const alice = await node('alice');
    const bob = await node('bob');
    await alice.run(`connect ${target}`);
    await until('alice to join', () => server.playerCount() === 1);
    await bob.run(`connect ${target}`);
    await until('both to fly', () => server.stats().clients.every((c) => c.statesSent > 0) && server.playerCount() === 2);

    const eye = await startTestHost('eye');
    extra.push(eye);
    await eye.run(`spectate ${target}`);
    await until('the spectator seat', () => /spectating gameserver "Watched"/.test(eye.text()));
    expect(eye.text()).toMatch(/protocol offline -> gameserver/);
    await until('both ships in the spectator\'s world', () => [0, 1].every((slot) => lastView(eye)?.ships.some((s) => s.slot === slot)), 20_000);
    expect(server.playerCount()).toBe(2);
    expect(server.stats().spectators.list.map((s) => s.name)).toEqual(['eye']);
    // The own view of a spectator follows the first ship, with its HUD; nobody's ship is the spectator's.
    expect(lastView(eye)?.localSlot).toBe(0);
    expect(eye.host.game?.game.localSlot).toBe(NO_SLOT);
    await until('the status line', () => /spectating gameserver "Watched" at [^,]+, 2 players, in solar system Sol; watching, following alice/.test(statusLine(eye)));
    await run(eye, 'camera follow next');
    expect(eye.text()).toMatch(/camera: following slot 1/);
    await until('the camera on bob', () => lastView(eye)?.localSlot === 1 && /following bob/.test(statusLine(eye)));
    await run(eye, 'camera free');
    await until('the free camera', () => lastView(eye)?.camera !== undefined && lastView(eye)?.localSlot === NO_SLOT);
    await run(eye, 'join');
    expect(eye.text()).toMatch(/join: you are watching from a spectator seat; to play, disconnect and connect again as a player/);
    await run(eye, 'say hello');
    expect(eye.text()).toMatch(/say: spectators cannot talk to the players/);
    expect(server.stats().drops['spectator-state'] ?? 0).toBe(0);
    // A spectator records the game it watches like a player: its demo replays to the same digests.
    await run(eye, 'record watched');
    await until('the recording', () => /recording demo watched \(gameserver\)/.test(eye.text()));
    const from = views(eye).length;
    await until('80 ticks recorded', () => views(eye).length >= from + 80, 20_000);
    await run(eye, 'stop');
    await until('the file', () => /recorded demo watched: /.test(eye.text()));
    await run(eye, 'timedemo watched');
    await until('timedemo', () => /timedemo watched: .*; ([1-9]\d*) of \1 digests matched/.test(eye.text()), 20_000);
    console.log(/timedemo watched: .*/.exec(eye.text())?.[0]);
    const seat = server.stats().spectators.list[0];
    console.log(`the spectator was sent ${seat?.statesSent} states in ${seat?.datagramsSent} datagrams (${seat?.bytesSent} B); the players' drops: ${JSON.stringify(server.stats().drops)}`);
    await run(eye, 'disconnect');
    await until('the seat to be freed', () => server.stats().spectators.list.length === 0);
    expect(server.playerCount()).toBe(2);
  });

  it('spectate in a p2p game connects without joining: the others\' ships are shown, its own is not', { timeout: 60_000 }, async () => {
    const port = await freeUdpPorts(P2P_PORT_SPAN);
    const [alpha, bravo] = await twoInOneLanGame('p2p', port);
    extra.push(alpha, bravo);
    const eye = await startTestHost('eye', { protocol: 'p2p', clientPort: port });
    extra.push(eye);
    await eye.run('spectate');
    await until('connected', () => /watching: connected but not joined/.test(eye.text()), 20_000);
    expect(eye.host.game?.game.watching).toBe(true);
    const own = eye.host.game?.game.localSlot;
    await until('both ships', () => [0, 1].every((slot) => lastView(eye)?.ships.some((s) => s.slot === slot)), 20_000);
    expect(lastView(eye)?.ships.some((s) => s.slot === own)).toBe(false);
    expect(lastView(eye)?.localSlot).toBe(0);
  });

  it('spectate at a netgame server takes a spectator seat: the shared world runs on the spectator too, with no ship of its own', { timeout: 60_000 }, async () => {
    const server = await startNetgameServer({ name: 'Shared', host: '127.0.0.1', port: 0, udpPort: 0, log: pino({ level: 'silent' }) });
    servers.push(server);
    const target = `127.0.0.1:${server.ports.tcp}`;
    const alice = await startTestHost('alice', { protocol: 'netgame' });
    const bob = await startTestHost('bob', { protocol: 'netgame' });
    extra.push(alice, bob);
    await alice.run(`connect ${target}`);
    await bob.run(`connect ${target}`);
    await until('both active', () => server.stats().clients.filter((c) => c.active).length === 2, 30_000);
    const eye = await startTestHost('eye', { protocol: 'netgame' });
    extra.push(eye);
    await eye.run(`spectate ${target}`);
    await until('the spectator seat', () => /spectating netgame "Shared"/.test(eye.text()));
    await until('both ships in the spectator\'s world', () => [0, 1].every((slot) => lastView(eye)?.ships.some((s) => s.slot === slot)), 30_000);
    expect(lastView(eye)?.ships.map((s) => s.slot).sort()).toEqual([0, 1]);
    expect(lastView(eye)?.localSlot).toBe(0);
    const stats = server.stats();
    expect(stats.clients.map((c) => c.name)).toEqual(['alice', 'bob']);
    expect(stats.spectators.list.map((w) => w.name)).toEqual(['eye']);
    expect(server.playerCount()).toBe(2);
    await run(eye, 'disconnect');
    await until('the seat to be freed', () => server.stats().spectators.list.length === 0);
  });
});
