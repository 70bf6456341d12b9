/**
 * A p2p game — and a lockstep game, on the same membership — is no reflector, on the wire: two complete hosts play on
 * loopback, and a stranger at another address (127.0.0.50, a new source port
 * per message so no ration hides a reply) sends every kind of datagram a p2p
 * node understands, with forged claims and connect queues naming sixteen
 * third-party sockets. Per kind, what comes back (to the sender and to the
 * named third parties) is measured in bytes: never more than was sent
 * (factor ≤ 1, exactly), nothing ever reaches an address that sent nothing,
 * and the game's table does not change.
 */
import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostService } from '../../src/node/host/hostService';
import { CHALLENGE_SIZE, encodeChallenge } from '../../src/shared/session/challengeWire';
import { encodeTimeRequest } from '../../src/shared/time/timeWire';
import { encodePacket } from '../../src/shared/wire/codec';
import { NO_SLOT, PacketType, type Packet, type PacketType as Type, type RemoteEvent } from '../../src/shared/wire/types';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';
import { startTestHost } from '../support/testHost';
import { waitFor as until } from '../support/waitFor';

const started: HostService[] = [];
const sockets: dgram.Socket[] = [];
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
  await Promise.all(started.splice(0).map((h) => h.dispose()));
});

async function host(name: string, port: number, protocol: string) {
  const t = await startTestHost(name, { protocol, clientPort: port });
  started.push(t.host);
  return { h: t.host, text: t.text, players: () => t.deliveries('players').at(-1)?.players ?? [] };
}

/** A UDP socket on `address` that counts what it receives. */
async function listener(address: string) {
  const s = dgram.createSocket('udp4');
  sockets.push(s);
  const got: Uint8Array[] = [];
  s.on('message', (m) => got.push(new Uint8Array(m)));
  await new Promise<void>((r) => s.bind(0, address, () => r()));
  return { s, got, port: s.address().port, bytes: () => got.reduce((n, m) => n + m.length, 0) };
}

const wireAddr = (ip: string, port: number) => Uint8Array.from([4, ...ip.split('.').map(Number), port >> 8, port & 0xff]);
const STATE = { pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 };
const frame: RemoteEvent = { type: 'lockstepStatus', frame: 100, epoch: 1, lead: 2, waitingOn: 0xffff, needState: true, checkFrame: 80, checkHash: '0123456789abcdef' };
const chunk: RemoteEvent = { type: 'lockstepState', epoch: 9, frame: 100, index: 0, count: 1, data: new Uint8Array(300) };

describe.each([
  ['p2p', false],
  ['lockstep', true],
])('a %s game is no reflector', (protocol, lockstep) => {
  /** A datagram as a node of this kind of game sends it (lockstep: header flag bit 2). */
  const packet = (type: Type, senderSlot: number, events: RemoteEvent[], token?: number): Packet => ({
    header: { type, senderSlot, messageId: 0x7fff_0000, gameTime: 1000, joined: true, state: STATE, ...(token === undefined ? {} : { token }), ...(lockstep ? { lockstep: true as const } : {}) },
    events,
  });

  it('answers no datagram of a stranger with more bytes than it sent, sends nothing to addresses named in it, and keeps its table', async () => {
    const port = await freeUdpPorts(P2P_PORT_SPAN);
    const alpha = await host('alpha', port, protocol);
    const bravo = await host('bravo', port, protocol);
    await alpha.h.command('connect');
    await until('alpha alone in its game', () => /connected to the peer-to-peer game as slot 0/.test(alpha.text()));
    await bravo.h.command('connect');
    await until('both in one game', () => [alpha, bravo].every((n) => n.players().length === 2));
    const table = () => alpha.players().map((p) => `${p.slot}:${p.name}:${p.address}`);
    const before = table();

    const thirdParties = await Promise.all(Array.from({ length: 16 }, (_, i) => listener(`127.0.0.${60 + i}`)));
    const queue = thirdParties.map((t) => wireAddr(`127.0.0.${60 + thirdParties.indexOf(t)}`, t.port));
    const players = thirdParties.slice(0, 8).map((t, i) => ({ slot: i, addr: queue[i] as Uint8Array, name: `ghost${i}`, joined: true }));
    const kinds: [string, Uint8Array][] = [
      ['ConnectRequest naming 16 addresses', encodePacket(packet(PacketType.ConnectRequest, NO_SLOT, [{ type: 'connectQueue', addrs: queue }, { type: 'playerName', name: 'mallory' }]))],
      ['SlotRequest naming 16 addresses', encodePacket(packet(PacketType.SlotRequest, NO_SLOT, [{ type: 'connectQueue', addrs: queue }, { type: 'playerName', name: 'mallory' }]))],
      ['ConnectReply with an 8-player table', encodePacket(packet(PacketType.ConnectReply, 0, [{ type: 'playerList', players }, { type: 'connectQueue', addrs: queue.slice(0, 8) }]))],
      ['NodeAlive claiming slot 0', encodePacket(packet(PacketType.NodeAlive, 0, [{ type: 'playerName', name: 'mallory' }]))],
      ['NodeAlive claiming slot 1 with a guessed token', encodePacket(packet(PacketType.NodeAlive, 1, [], 0x1234_5678))],
      ['GameState', encodePacket(packet(PacketType.GameState, 2, [{ type: 'sendText', text: 'hello' }]))],
      ['GameState: a lockstep frame waiting on everyone, asking for state', encodePacket(packet(PacketType.GameState, 1, [frame]))],
      ['GameState: a lockstep state chunk', encodePacket(packet(PacketType.GameState, 0, [chunk]))],
      ['SubdueSlave', encodePacket(packet(PacketType.SubdueSlave, NO_SLOT, []))],
      ['GameFull', encodePacket(packet(PacketType.GameFull, 0, [{ type: 'connectQueue', addrs: queue }]))],
      ['Disconnect', encodePacket(packet(PacketType.Disconnect, 1, []))],
      ['Ping', encodePacket(packet(PacketType.Ping, 1, []))],
      ['Pong', encodePacket(packet(PacketType.Pong, 1, []))],
      ['Reliable', encodePacket({ ...packet(PacketType.Reliable, 1, []), link: { messages: [{ id: 1, event: { type: 'sendText', text: 'hi' } }] } })],
      ['TimeRequest', encodeTimeRequest(1, 1000)],
      ['Challenge (forged, no echo)', encodeChallenge({ echo: 0, cookie: 0xdead_beef })],
      ['Challenge (forged, guessed echo)', encodeChallenge({ echo: 0x0bad_cafe, cookie: 0xdead_beef })],
      ['garbage', Uint8Array.from({ length: 40 }, (_, i) => (i * 37) & 0xff)],
    ];
    // Per kind, a fresh source; then a marker from another fresh source whose challenge arrives only after
    // everything the first datagram caused was sent (one socket, one handler, in order).
    const rows: string[] = [];
    for (const [kind, bytes] of kinds) {
      const attacker = await listener('127.0.0.50');
      const marker = await listener('127.0.0.51');
      const thirdBefore = thirdParties.reduce((n, t) => n + t.bytes(), 0);
      attacker.s.send(bytes, port, '127.0.0.1');
      marker.s.send(encodePacket(packet(PacketType.NodeAlive, NO_SLOT, [{ type: 'playerName', name: 'marker' }])), port, '127.0.0.1');
      await until(`the marker's challenge after ${kind}`, () => marker.got.length > 0);
      expect(marker.got[0]?.length).toBe(CHALLENGE_SIZE);
      const back = attacker.bytes();
      const third = thirdParties.reduce((n, t) => n + t.bytes(), 0) - thirdBefore;
      rows.push(`${kind.padEnd(48)} ${String(bytes.length).padStart(4)} B in → ${String(back).padStart(3)} B back in ${attacker.got.length} datagram(s) (factor ${(back / bytes.length).toFixed(2)}), ${third} B to third parties`);
      expect(back, kind).toBeLessThanOrEqual(bytes.length);
      expect(attacker.got.length, kind).toBeLessThanOrEqual(1);
      expect(third, kind).toBe(0);
    }
    console.log(`amplification of a ${protocol} node (alpha) per message kind:\n${rows.join('\n')}`);
    expect(table()).toEqual(before);
    expect(bravo.players()).toHaveLength(2);
    expect(alpha.text()).not.toMatch(/mallory|ghost|disconnected|timed out/);
  });
});
