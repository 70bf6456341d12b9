/**
 * A peer speaking another wire-format version: its datagrams reach a real
 * game over a real UDP socket and are dropped, and the player gets one
 * console line about it (not one per packet), in p2p and slotserver games.
 */
import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { NEUTRAL_STATE } from '../../src/shared/p2p';
import { encodePacket } from '../../src/shared/wire/codec';
import { PacketType, WIRE_VERSION } from '../../src/shared/wire/types';
import { startTestHost, until, type TestHost } from '../support/testHost';

const hosts: TestHost[] = [];
const sockets: dgram.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
});

/** A valid NodeAlive from slot `slot` claiming wire version `version`. */
function foreign(version: number, slot: number, id: number): Uint8Array {
  const bytes = encodePacket({ header: { type: PacketType.NodeAlive, senderSlot: slot, messageId: id, gameTime: 0, joined: false, state: NEUTRAL_STATE }, events: [] });
  bytes[2] = version;
  return bytes;
}

async function socket(): Promise<dgram.Socket> {
  const s = dgram.createSocket('udp4');
  sockets.push(s);
  await new Promise<void>((resolve) => s.bind(0, '127.0.0.1', resolve));
  return s;
}

const send = (s: dgram.Socket, port: number, bytes: Uint8Array) => new Promise<void>((resolve, reject) => s.send(bytes, port, '127.0.0.1', (err) => (err ? reject(err) : resolve())));

describe('a peer on another wire version', () => {
  for (const protocol of ['p2p', 'slotserver'] as const) {
    it(`${protocol}: 50 packets from it give the player one line naming its address and both versions`, { timeout: 15_000 }, async () => {
      const game = await startTestHost('pilot', { protocol });
      hosts.push(game);
      const port = game.host.subsystems.packetApi.table.localPort();
      const [old, marker] = [await socket(), await socket()];
      for (let i = 1; i <= 50; i++) await send(old, port, foreign(WIRE_VERSION + 1, 1, i));
      // One socket receives in order: once a second peer's line is there, all 50 of the first have been handled.
      await send(marker, port, foreign(WIRE_VERSION - 1, 2, 1));
      const oldAt = `127.0.0.1:${old.address().port}`;
      const markerAt = `127.0.0.1:${marker.address().port}`;
      await until('the second peer\'s line', () => game.text().includes(`${markerAt} runs Starlane wire version ${WIRE_VERSION - 1}`));
      const lines = game.text().split('\n').filter((l) => l.includes(oldAt));
      expect(lines).toEqual([`${oldAt} runs Starlane wire version ${WIRE_VERSION + 1}, this game speaks ${WIRE_VERSION}: the two cannot play together (its packets are ignored)`]);
    });
  }
});
