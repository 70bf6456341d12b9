/**
 * Decoding untrusted bytes (src/shared/wire/codec.ts): every malformed
 * datagram is dropped with its reason, never thrown on.
 */
import { describe, expect, it } from 'vitest';
import { decodePacket, PacketType, DROP_REASONS, DropCounters, MAX_NAME_LENGTH, MAX_QUEUE, MAX_SLOTS, MAX_TEXT_BYTES, MAX_WIRE_SLOTS } from '../../../src/shared/wire';
import type { DropReason } from '../../../src/shared/wire';
import { be16, be32, f32, ascii, ev, HEADER_BYTES, AT, datagram, relay, patched, v4, v6} from '../../support/wireBytes';

function dropReason(bytes: Uint8Array): DropReason | 'accepted' {
  const r = decodePacket(bytes);
  return r.ok ? 'accepted' : r.reason;
}

describe('decode drops malformed datagrams with a reason', () => {
  const good = datagram(ev(5, [...be32(1), 0xff]));
  const name = (s: string): number[] => [s.length, ...ascii(s)];
  const entry = (slot: number, flags = 1, a = v4(10, 0, 0, 1, 6526), n = name('Bo')): number[] => [slot, flags, a.length, ...a, ...n];
  /** A matchState's fields up to its score page (round 0, playing, no limits, 0 ms), then `page`. */
  const match = (page: number): number[] => [0, 0, 0, 0, 0, ...be32(0), ...be32(0), ...be32(0), page];
  const laser = [...be32(1), ...f32(0), ...f32(0), ...f32(0), ...f32(1), ...f32(1), ...f32(1), ...be16(40)];
  /** The base datagram with a link section (wire v11: flags bit 6, after the ship state) of `section` bytes and no events. */
  const linked = (section: number[]): Uint8Array => Uint8Array.from([...patched(Uint8Array.from(HEADER_BYTES), AT.flags, [(HEADER_BYTES[AT.flags] as number) | 0x40]), ...section, 0]);

  const cases: [DropReason, string, Uint8Array][] = [
    ['too-large', 'a 513-byte datagram', Uint8Array.from([...datagram(), ...new Array<number>(513 - 45).fill(0)])],
    ['truncated', 'an empty datagram', new Uint8Array(0)],
    ['truncated', 'a header without the terminator', Uint8Array.from(HEADER_BYTES)],
    ['truncated', 'a header cut in the ship state', Uint8Array.from(HEADER_BYTES.slice(0, 30))],
    ['truncated', 'an event whose declared length runs past the datagram', Uint8Array.from([...HEADER_BYTES, 5, 0, 5, 0, 0])],
    ['bad-magic', 'another magic', patched(good, AT.magic, [0x53, 0x4d])],
    ['bad-version', 'version 1 (before reliable messages)', patched(good, AT.version, [1])],
    ['unknown-type', 'packet type 0', patched(good, AT.type, [0])],
    ['unknown-type', 'packet type 15', patched(good, AT.type, [15])],
    ['bad-slot', `a score of slot ${MAX_WIRE_SLOTS} (NO_SLOT)`, datagram(ev(14, [...match(3), 1, MAX_WIRE_SLOTS, 0, 0, 0, 0]))],
    ['bad-slot', 'player-list entry slot 16 (a peer-to-peer slot table names 0..15)', datagram(ev(9, [1, ...entry(16)]))],
    ['out-of-range', 'matchState score page 4 (pages 0..3)', datagram(ev(14, [...match(4), 0]))],
    ['out-of-range', 'a score of slot 64 on page 0 (slots 0..63)', datagram(ev(14, [...match(0), 1, 64, 0, 0, 0, 0]))],
    ['bad-flags', 'header flag bit 5', patched(good, AT.flags, [0x39])],
    ['bad-flags', 'a ship state without its game time (flag bit 4 without bit 3)', Uint8Array.from([...HEADER_BYTES.slice(0, AT.flags), 0x11, ...HEADER_BYTES.slice(AT.flags + 1, 10), ...HEADER_BYTES.slice(14), 0])],
    ['bad-flags', 'a Ping without its stamp (no flag bit 3)', Uint8Array.from([...HEADER_BYTES.slice(0, AT.type), PacketType.Ping, HEADER_BYTES[AT.slot] as number, 0x00, ...HEADER_BYTES.slice(6, 10), 0])],
    ['bad-flags', 'player-list entry flags 2', datagram(ev(9, [1, ...entry(0, 2)]))],
    ['non-finite', 'an infinite particle radius', datagram(ev(8, [...be32(1), 0, ...f32(0), ...f32(0), ...f32(0), ...f32(Infinity), ...be16(1)]))],
    ['out-of-range', 'a ship position beyond 1e6 (the i24 holds 1,048,575)', patched(good, AT.pos + 3, [0x7f, 0xff, 0xff])],
    ['bad-portions', 'a state without a base missing a portion (portions 0x0f)', patched(good, AT.portions, [0x0f])],
    ['bad-portions', 'portions bit 6', patched(good, AT.portions, [0x5f])],
    ['bad-portions', 'a partial state naming a base 0 ids back', Uint8Array.from([...HEADER_BYTES.slice(0, AT.portions), 0x21, 0, 0, 8, 0, 0, 0, 0, 0])],
    ['unknown-base', 'a partial state (only its position, moved 1 unit along x) against a base never sent', Uint8Array.from([...HEADER_BYTES.slice(0, AT.portions), 0x21, 1, 0, 8, 0, 0, 0, 0, 0])],
    ['truncated', 'a partial state cut in its position', Uint8Array.from([...HEADER_BYTES.slice(0, AT.portions), 0x21, 1, ...HEADER_BYTES.slice(AT.pos, AT.pos + 4)])],
    ['out-of-range', 'energy 101', patched(good, AT.energy, [101])],
    ['out-of-range', 'damage 255', patched(good, AT.damage, [255])],
    ['out-of-range', 'a negative radius', datagram(ev(8, [...be32(1), 0, ...f32(0), ...f32(0), ...f32(0), ...f32(-1), ...be16(1)]))],
    ['bad-quat', 'a rotation whose three smaller components are all −1/√2 (all-zero bits: longer than 1)', patched(good, AT.rot, new Array<number>(6).fill(0))],
    ['bad-quat', 'a rotation with its last (always 0) bit set', patched(good, AT.rot + 5, [0xff])],
    ['bad-quat', 'a rotation component at step 32767 (steps are 0..32766)', patched(good, AT.rot + 4, [0xff, 0xfe])],
    ['unknown-event', 'event type 28', datagram(ev(28, [0]))],
    ['out-of-range', 'matchState phase 2', datagram(ev(14, [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))],
    ['out-of-range', 'killObject cause 0', datagram(ev(5, [0, 0, 0, 0, 1, 0]))],
    ['out-of-range', 'killObject cause 6 (there are five)', datagram(ev(5, [0, 0, 0, 0, 1, 6]))],
    ['bad-length', 'killObject with two bytes after killerSlot', datagram(ev(5, [0, 0, 0, 0, 1, 1, 1]))],
    ['out-of-range', 'playerLook design 3 (there are three designs)', datagram(ev(25, [3, 0]))],
    ['out-of-range', 'playerLook colour 8 (there are eight colours)', datagram(ev(25, [0xff, 8]))],
    ['unknown-event', 'event type 255', datagram(ev(255, []))],
    ['bad-length', 'a payload one byte longer than its fields', datagram(ev(25, [0xff, 0xff, 0]))],
    ['bad-length', 'a payload one byte shorter than its fields', datagram(ev(5, [...be32(1)]))],
    ['bad-length', 'a laser with an empty payload', datagram(ev(2, []))],
    ['bad-length', 'a text length running past its payload', datagram([6, ...be16(3), 10, 0x61, 0x62], [0x63])],
    ['bad-text', 'malformed UTF-8', datagram(ev(6, [2, 0xc3, 0x28]))],
    ['bad-text', 'a UTF-8 encoded surrogate', datagram(ev(6, [3, 0xed, 0xa0, 0x80]))],
    ['bad-text', 'a C0 control character (BEL)', datagram(ev(6, [3, 0x61, 0x07, 0x62]))],
    ['bad-text', 'DEL', datagram(ev(6, [1, 0x7f]))],
    ['bad-text', 'a C1 control character (NEL)', datagram(ev(6, [2, 0xc2, 0x85]))],
    ['bad-text', `${MAX_TEXT_BYTES + 1} bytes of text`, datagram(ev(6, [MAX_TEXT_BYTES + 1, ...new Array<number>(MAX_TEXT_BYTES + 1).fill(0x61)]))],
    ['bad-name', 'an empty name', datagram(ev(7, [0]))],
    ['bad-name', 'a name with a leading space', datagram(ev(7, name(' Bo')))],
    ['bad-name', 'a name with a trailing space', datagram(ev(7, name('Bo ')))],
    ['bad-name', `a name of ${MAX_NAME_LENGTH + 1} characters`, datagram(ev(7, name('a'.repeat(MAX_NAME_LENGTH + 1))))],
    ['bad-name', 'a name with a byte above 0x7e', datagram(ev(7, [2, 0x61, 0xe9]))],
    ['bad-name', 'a player-list name with a tab', datagram(ev(9, [1, ...entry(0, 1, undefined, [3, 0x61, 0x09, 0x62])]))],
    ['bad-addr', 'an address of 8 bytes', datagram(ev(10, [1, 8, ...v4(1, 2, 3, 4, 5), 0]))],
    ['bad-addr', 'a 7-byte address claiming family 6', datagram(ev(10, [1, 7, 6, 1, 2, 3, 4, 0, 5]))],
    ['bad-addr', 'a 19-byte address claiming family 4', datagram(ev(10, [1, 19, 4, ...v6(1, 5).slice(1)]))],
    ['bad-list', `a player list of ${MAX_SLOTS + 1} entries`, datagram(ev(9, [MAX_SLOTS + 1, ...Array.from({ length: MAX_SLOTS + 1 }, (_, i) => entry(i % MAX_SLOTS)).flat()]))],
    ['bad-list', 'a player list with slot 3 twice', datagram(ev(9, [2, ...entry(3), ...entry(3)]))],
    ['bad-nesting', 'a relayed event (type 11) in a GameState packet', datagram(ev(11, [2, ...be16(HEADER_BYTES.length + 1), ...patched(Uint8Array.from(HEADER_BYTES), AT.slot, [2]), 0]))],
    ['bad-nesting', 'a relayed GameState that itself holds a relayed event', relay(ev(11, [2, ...be16(HEADER_BYTES.length + 4), ...HEADER_BYTES, ...ev(11, []), 0]))],
    ['bad-nesting', 'a relayed packet that is a NodeAlive, not a GameState', relay(ev(11, [2, ...be16(HEADER_BYTES.length + 1), ...patched(Uint8Array.from(HEADER_BYTES), AT.type, [2]), 0]))],
    ['bad-nesting', 'a relayed packet carrying a session token', relay(ev(11, [2, ...be16(HEADER_BYTES.length + 5), ...patched(Uint8Array.from(HEADER_BYTES), AT.flags, [0x1b]), ...be32(7), 0]))],
    ['bad-list', `a connect queue of ${MAX_QUEUE + 1}`, datagram(ev(10, [MAX_QUEUE + 1, ...Array.from({ length: MAX_QUEUE + 1 }, () => [7, ...v4(1, 2, 3, 4, 5)]).flat()]))],
    ['bad-link', 'a link section (flags bit 6) with nothing in it', linked([0x00])],
    ['truncated', 'a link byte with bit 5 (a relay acknowledgement, v14), cut inside its mask', linked([0x20, ...be16(7), 0, 0])],
    ['truncated', 'a link byte with bit 7 (a state acknowledgement, v13) and one id, cut after the acknowledgement', linked([0x81, ...be16(7)])],
    ['bad-link', 'a link section whose messages number 0', linked([0x40, 0])],
    ['bad-link-message', 'a reliable message that is a laser', linked([0x40, 1, ...be16(1), ...ev(2, laser)])],
    ['bad-link-message', 'a reliable message that is a relayed envelope', linked([0x40, 1, ...be16(1), ...ev(11, [])])],
    ['trailing-bytes', 'a byte after the terminator', Uint8Array.from([...good, 0])],
  ];

  it('the crafted base datagram itself is accepted', () => {
    expect(dropReason(good)).toBe('accepted');
    expect(dropReason(datagram(ev(2, laser)))).toBe('accepted');
    expect(dropReason(datagram(ev(9, [2, ...entry(0), ...entry(7, 0, v6(9, 1))])))).toBe('accepted');
    expect(dropReason(linked([0x41, ...be16(7), 1, ...be16(9), ...ev(6, [2, 0x68, 0x69])]))).toBe('accepted');
  });

  for (const [reason, what, bytes] of cases) {
    it(`${reason}: ${what}`, () => {
      expect(dropReason(bytes)).toBe(reason);
    });
  }

  it('every DropReason has a crafted datagram', () => {
    expect(new Set(cases.map(([reason]) => reason))).toEqual(new Set(DROP_REASONS));
  });

  it('DropCounters counts per reason and in total', () => {
    const drops = new DropCounters();
    for (const [, , bytes] of cases) {
      const r = decodePacket(bytes);
      if (!r.ok) drops.count(r.reason);
    }
    expect(drops.total).toBe(cases.length);
    const snap = drops.snapshot();
    expect(Object.keys(snap)).toEqual([...DROP_REASONS]);
    expect(snap['bad-text']).toBe(cases.filter(([r]) => r === 'bad-text').length);
    drops.reset();
    expect([drops.total, drops.snapshot()]).toEqual([0, {}]);
  });
});
