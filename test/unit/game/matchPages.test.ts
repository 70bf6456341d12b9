/**
 * Wire v12: a match of up to 255 players travels as score pages
 * (matchSync.ts `matchPages`), each a matchState holding the slots
 * 64p..64p+63, and a game takes each page into its scores without losing the
 * others' (`withAnnouncement`); a new round starts every page afresh. A full
 * page fits one Relay datagram as a reliable message.
 */
import { describe, expect, it } from 'vitest';
import { matchPages, withAnnouncement, type MatchStanding } from '../../../src/shared/game/matchSync';
import { createWorld } from '../../../src/shared/game/world';
import { encodePacket, decodePacket } from '../../../src/shared/wire/codec';
import { MATCH_SCORES_PER_PAGE, MAX_DATAGRAM_BYTES, MAX_SCORE, MAX_WIRE_SLOTS, NO_SLOT, NO_TIME_LIMIT, PacketType } from '../../../src/shared/wire/types';

const standing = (slots: number[], round = 0): MatchStanding => ({
  round,
  phase: 0,
  killLimit: 0,
  timeLimitS: 0,
  msLeft: NO_TIME_LIMIT,
  msPlayed: 0,
  scores: slots.map((slot) => ({ slot, kills: slot % 7, deaths: slot % 5 })),
});
const every = Array.from({ length: MAX_WIRE_SLOTS }, (_, slot) => slot);

describe('score pages', () => {
  it('a 255-seat game says its match in 4 pages of at most 64 slots each, every score on its own page', () => {
    const pages = matchPages(standing(every), MAX_WIRE_SLOTS);
    expect(pages.map((p) => p.page)).toEqual([0, 1, 2, 3]);
    expect(pages.map((p) => p.scores.length)).toEqual([64, 64, 64, 63]);
    for (const p of pages) for (const s of p.scores) expect(Math.floor(s.slot / MATCH_SCORES_PER_PAGE)).toBe(p.page);
    expect(pages.flatMap((p) => p.scores)).toEqual(standing(every).scores);
  });

  it('a game of up to 64 seats says it in one page, as before; a page with no score now is still said (a leaver is cleared)', () => {
    expect(matchPages(standing([0, 5, 63]), 64)).toEqual([{ ...standing([0, 5, 63]), page: 0 }]);
    expect(matchPages(standing([]), 8)).toEqual([{ ...standing([]), page: 0 }]);
    expect(matchPages(standing([2]), 130).map((p) => p.scores.length)).toEqual([1, 0, 0]);
  });

  it('a full page with the largest scores fits one Relay datagram as a reliable message, and decodes to itself', () => {
    const full = matchPages({ ...standing(every), scores: every.map((slot) => ({ slot, kills: MAX_SCORE, deaths: MAX_SCORE })) }, MAX_WIRE_SLOTS)[0];
    if (!full) throw new Error('no page');
    const bytes = encodePacket({ header: { type: PacketType.Relay, senderSlot: NO_SLOT, messageId: 1, gameTime: 1, joined: false, token: 1 }, events: [], link: { acks: [1, 2, 3, 4], messages: [{ id: 0xffff, event: { type: 'matchState', ...full } }] } });
    console.log(`a full score page (64 slots) in a Relay datagram: ${bytes.length} of ${MAX_DATAGRAM_BYTES} bytes`);
    expect(bytes.length).toBeLessThanOrEqual(MAX_DATAGRAM_BYTES);
    const back = decodePacket(bytes);
    expect(back.ok && back.packet.link?.messages?.[0]?.event).toEqual({ type: 'matchState', ...full });
  });

  it("a game takes each page into its scores and keeps the other pages'; the next round starts every page afresh", () => {
    let world = createWorld(1);
    const pages = matchPages(standing([1, 70, 200]), MAX_WIRE_SLOTS);
    for (const p of pages) world = withAnnouncement(world, p, 0, 1);
    expect(world.scores.map((s) => s.slot)).toEqual([1, 70, 200]);
    // Slot 70 left: page 1 now holds nothing, and the game forgets its score; the other pages stand.
    world = withAnnouncement(world, matchPages(standing([1, 200]), MAX_WIRE_SLOTS)[1] as never, 0, 1);
    expect(world.scores.map((s) => s.slot)).toEqual([1, 200]);
    // A new round: its first page (whichever arrives first) clears every page.
    world = withAnnouncement(world, matchPages(standing([130], 1), MAX_WIRE_SLOTS)[2] as never, 0, 1);
    expect(world.scores.map((s) => [s.slot, s.kills, s.deaths])).toEqual([[130, 130 % 7, 0]]);
    world = withAnnouncement(world, matchPages(standing([2, 130], 1), MAX_WIRE_SLOTS)[0] as never, 0, 1);
    expect(world.scores.map((s) => s.slot)).toEqual([2, 130]);
  });
});
