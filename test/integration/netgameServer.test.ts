/**
 * The netgame server on real sockets: three clients join over TCP (the
 * gameserver's join lines, a UDP port and a token in the accept), then play
 * over UDP with the pure NetgameClient. Each gets its welcome and the whole
 * state, steps the server's moves, and every frame two of them stepped has
 * one state; a stranger's datagrams and a forged token change nothing.
 */
import dgram from 'node:dgram';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startNetgameServer, type RunningNetgameServer } from '../../src/node/servers/netgame/netgameServer';
import { zlibPacker } from '../../src/node/lockstep/zlibPacker';
import { NetgameClient } from '../../src/shared/netgame/client';
import { encodeNetState } from '../../src/shared/netgame/netState';
import { decodePacket, encodePacket } from '../../src/shared/wire/codec';
import type { NetgameEvent } from '../../src/shared/wire/types';
import { GameClient } from '../support/gameClient';
import { waitFor as until } from '../support/waitFor';

const servers: RunningNetgameServer[] = [];
const clients: GameClient[] = [];
const timers: ReturnType<typeof setInterval>[] = [];
afterEach(async () => {
  for (const t of timers.splice(0)) clearInterval(t);
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A player: the TCP join and UDP socket of GameClient, the game of NetgameClient, a 25 ms tick. */
async function player(server: RunningNetgameServer, name: string, yaw: number) {
  let net: NetgameClient | null = null;
  const g = await GameClient.join({
    tcpPort: server.ports.tcp,
    name,
    answerPings: false,
    answerReliable: false,
    raw: (bytes) => {
      const r = decodePacket(bytes);
      if (!r.ok) return;
      for (const ev of r.packet.events) net?.receive(ev as NetgameEvent, performance.now());
    },
  });
  clients.push(g);
  net = new NetgameClient({ packer: zlibPacker(), send: (events) => g.sendRaw(g.packet({ joined: false, events })) });
  const n = net;
  const hashes = new Map<number, string>();
  // The first datagram tells the server where we are: it welcomes us there.
  g.sendRaw(g.packet({ joined: false, events: [{ type: 'movesAck', clientFrame: 0, next: 0, stamp: 0 }] }));
  timers.push(
    setInterval(() => {
      const stepped = n.tick({ thrust: 1, yaw, pitch: 0, roll: 0, fire: false }, performance.now());
      // The state after the tick (a tick may step several frames while chasing the server).
      if (stepped.length > 0 && n.state) hashes.set(n.state.world.tick, Buffer.from(encodeNetState(n.state)).toString('base64'));
    }, 25),
  );
  return { g, n, hashes };
}

describe('the netgame server on loopback', () => {
  it('three clients join, get the state, and step the same states; a stranger changes nothing', { timeout: 30_000 }, async () => {
    const server = await startNetgameServer({ name: 'Netgame', log: pino({ level: 'silent' }), host: '127.0.0.1', port: 0, udpPort: 0 });
    servers.push(server);
    const three = [await player(server, 'ant', 0.2), await player(server, 'bee', -0.2), await player(server, 'cat', 0.5)];
    await until('every client in the game', () => three.every((p) => p.n.state !== null && p.n.state.world.ships.length === 3), 10_000);
    const start = Math.max(...three.map((p) => p.n.state?.world.tick ?? 0));
    await until('two seconds of play', () => three.every((p) => (p.n.state?.world.tick ?? 0) > start + 80), 10_000);

    // A stranger: garbage, and a datagram with a guessed token.
    const stranger = dgram.createSocket('udp4');
    await new Promise<void>((r) => stranger.bind(0, '127.0.0.1', () => r()));
    stranger.send(Buffer.from('not a datagram'), server.ports.udp, '127.0.0.1');
    const forged = three[0]?.g.packet({ joined: false, events: [{ type: 'controlChange', frame: 99999, input: { thrust: -127, yaw: 0, pitch: 0, roll: 0, buttons: 0, target: 255 } }] });
    if (forged) stranger.send(encodePacket({ ...forged, header: { ...forged.header, token: ((forged.header.token ?? 0) ^ 1) >>> 0 } }), server.ports.udp, '127.0.0.1');
    await until('the stranger counted', () => Object.keys(server.stats().drops).length > 0, 5_000);
    stranger.close();

    // Every frame two clients stepped: one state.
    let compared = 0;
    const differing: number[] = [];
    const [a, b, c] = three as [(typeof three)[0], (typeof three)[0], (typeof three)[0]];
    for (const [frame, hash] of a.hashes) {
      for (const other of [b, c]) {
        const h = other.hashes.get(frame);
        if (h === undefined) continue;
        compared++;
        if (h !== hash) differing.push(frame);
      }
    }
    const stats = server.stats();
    console.log(`netgame server: frame ${stats.frame}; ${compared} client frames compared, ${differing.length} differing; per client: ${stats.clients.map((x) => `${x.name} lead ${x.controlLead} rtt ${x.rttMs} ms sync ${x.serverSync} changes ${x.controlChanges} late ${x.lateChanges} diff ${x.lastDiff?.packed} B/${x.lastDiff?.chunks}`).join('; ')}; drops ${JSON.stringify(stats.drops)}`);
    expect(compared).toBeGreaterThan(100);
    expect(differing).toEqual([]);
    expect(stats.clients.map((x) => x.name)).toEqual(['ant', 'bee', 'cat']);
    expect(stats.drops['unknown-token'] ?? 0).toBeGreaterThanOrEqual(1);
    // The forged change moved nobody backwards: every ship still thrusts forward.
    for (const p of three) expect(p.n.state?.controls.get(p.g.slot)?.thrust).toBe(127);
  });
});
