/**
 * The Relay datagrams a gameserver's forwarder flushed, decoded as a client
 * decodes them (a datagram that does not decode fails the test with its reason).
 */
import { decodePacket } from '../../src/shared/wire/codec';
import type { Packet } from '../../src/shared/wire/types';

export function decodedRelays(datagrams: readonly Uint8Array[]): Packet[] {
  return datagrams.map((bytes) => {
    const r = decodePacket(bytes);
    if (!r.ok) throw new Error(`a relay datagram the forwarder sent does not decode: ${r.reason}`);
    return r.packet;
  });
}
