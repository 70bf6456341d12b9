/**
 * VersionNotices: a peer on another wire version gets one console line, not
 * one per packet; again after a minute if it keeps sending; memory bounded.
 */
import { describe, expect, it } from 'vitest';
import { VersionNotices } from '../../../src/shared/net/versionNotices';
import { NEUTRAL_STATE } from '../../../src/shared/p2p';
import { encodePacket } from '../../../src/shared/wire/codec';
import { PacketType, WIRE_VERSION } from '../../../src/shared/wire/types';

/** A valid NodeAlive with its version byte set to `version`. */
function datagram(version: number): Uint8Array {
  const bytes = encodePacket({ header: { type: PacketType.NodeAlive, senderSlot: 0, messageId: 1, gameTime: 0, joined: false, state: NEUTRAL_STATE }, events: [] });
  bytes[2] = version;
  return bytes;
}

describe('lines about peers on another wire version', () => {
  it('one line per peer naming both versions, silent for a minute however many packets follow, then once more', () => {
    const notices = new VersionNotices();
    expect(notices.line('10.0.0.5:6526', datagram(WIRE_VERSION + 1), 0)).toBe(`10.0.0.5:6526 runs Starlane wire version ${WIRE_VERSION + 1}, this game speaks ${WIRE_VERSION}: the two cannot play together (its packets are ignored)`);
    for (let t = 1; t < 60_000; t += 25) expect(notices.line('10.0.0.5:6526', datagram(WIRE_VERSION + 1), t)).toBeNull();
    // Another peer is told about on its own.
    expect(notices.line('10.0.0.6:6526', datagram(1), 100)).toMatch(/^10\.0\.0\.6:6526 runs Starlane wire version 1,/);
    expect(notices.line('10.0.0.5:6526', datagram(WIRE_VERSION + 1), 60_000)).toMatch(`10.0.0.5:6526 runs Starlane wire version ${WIRE_VERSION + 1},`);
  });

  it('says nothing for datagrams that name no other version (not Starlane, too short, our own version)', () => {
    const notices = new VersionNotices();
    expect(notices.line('a', Uint8Array.from([1, 2, 3, 4]), 0)).toBeNull();
    expect(notices.line('a', datagram(WIRE_VERSION + 1).subarray(0, 2), 0)).toBeNull();
    expect(notices.line('a', datagram(WIRE_VERSION), 0)).toBeNull();
  });

  it('remembers a bounded number of peers: a flood of sources gets no more lines until old ones expire', () => {
    const notices = new VersionNotices(1000, 4);
    for (let i = 0; i < 4; i++) expect(notices.line(`p${i}`, datagram(WIRE_VERSION + 1), 0)).not.toBeNull();
    expect(notices.line('p4', datagram(WIRE_VERSION + 1), 10)).toBeNull();
    expect(notices.line('p4', datagram(WIRE_VERSION + 1), 1000)).not.toBeNull();
  });
});
