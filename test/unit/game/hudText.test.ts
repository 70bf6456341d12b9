import { describe, expect, it } from 'vitest';
import { clockText, hasOpponents, matchText, scoreRows, SCOREBOARD_ROWS, shownRows, winnerText } from '../../../src/renderer/src/view/hudText';
import type { WorldView } from '../../../src/shared/game/view';
import { MATCH_OVER, MATCH_PLAYING } from '../../../src/shared/game/types';

const match = (phase: number, secondsLeft: number | null, killLimit = 10) => ({ phase, secondsLeft, killLimit, timeLimitS: 600, round: 0 });
const view = (scores: WorldView['scores'], localSlot = 0, more: Partial<WorldView> = {}): WorldView => ({
  tick: 0, localSlot, respawnSeconds: null, ships: [], objects: [], asteroids: [], scores, match: match(MATCH_OVER, 7), lockedBy: [], bots: [], pings: [], ...more,
});
const names = (slot: number) => ['ann', 'bob', 'cy', 'dee'][slot] ?? `slot ${slot}`;
const ship = (slot: number) => ({ slot, pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, energy: 100, shield: 40, damage: 0, missiles: 3, mines: 2, laserLevel: 1, invulnerable: 0 });
const netPlayer = (slot: number, local = false, joined = true) => ({ slot, name: names(slot), joined, local, address: `10.0.0.${slot + 1}:6526` });

describe('HUD words', () => {
  it('shows the match clock and kill limit while playing against someone, nothing alone or once over', () => {
    expect(clockText(0)).toBe('0:00');
    expect(clockText(605)).toBe('10:05');
    expect(matchText(match(MATCH_PLAYING, 65), true)).toBe('1:05 · first to 10 kills');
    expect(matchText(match(MATCH_PLAYING, 65, 1), true)).toBe('1:05 · first to 1 kill');
    expect(matchText(match(MATCH_PLAYING, null, 0), true)).toBe('no time limit · no kill limit');
    expect(matchText(match(MATCH_OVER, 5), true)).toBe('');
    expect(matchText(match(MATCH_PLAYING, 593), false)).toBe('');
  });

  it('finds someone to play against: a bot, another ship or score line, another joined player', () => {
    const alone = view([{ slot: 0, kills: 0, deaths: 1 }], 0, { ships: [ship(0)] });
    expect(hasOpponents(alone, [])).toBe(false);
    expect(hasOpponents({ ...alone, bots: [1], ships: [ship(0), ship(1)] }, [])).toBe(true);
    // A network game we started, nobody else in it yet (or only connecting): alone.
    expect(hasOpponents(view([], 0, { ships: [ship(0)] }), [netPlayer(0, true)])).toBe(false);
    expect(hasOpponents(view([], 0, { ships: [ship(0)] }), [netPlayer(0, true), netPlayer(1, false, false)])).toBe(false);
    // Another joined player: in the slot table even while its ship is down and it has no score yet.
    expect(hasOpponents(view([], 1, { ships: [ship(1)] }), [netPlayer(0), netPlayer(1, true)])).toBe(true);
    expect(hasOpponents(view([], 1, { ships: [ship(1), ship(0)] }), [])).toBe(true);
    expect(hasOpponents(view([{ slot: 1, kills: 0, deaths: 0 }, { slot: 2, kills: 1, deaths: 0 }], 1), [])).toBe(true);
  });

  it('ranks by kills, then fewer deaths, then slot; our row is our name marked "(you)"', () => {
    const rows = scoreRows(view([{ slot: 0, kills: 2, deaths: 1 }, { slot: 1, kills: 3, deaths: 4 }, { slot: 2, kills: 2, deaths: 0 }, { slot: 3, kills: 2, deaths: 1 }], 3), names);
    expect(rows.map((r) => [r.rank, r.name, r.kills, r.deaths, r.pingMs])).toEqual([
      [1, 'bob', 3, 4, null],
      [2, 'cy', 2, 0, null],
      [3, 'ann', 2, 1, null],
      [4, 'dee (you)', 2, 1, null],
    ]);
    expect(rows.filter((r) => r.local).map((r) => r.slot)).toEqual([3]);
  });

  it('with more players than its rows, the scoreboard shows the best, ours wherever we rank, and how many more there are', () => {
    const scores = Array.from({ length: 200 }, (_, slot) => ({ slot, kills: 200 - slot, deaths: 0 }));
    const ranked = (local: number) => shownRows(scoreRows(view(scores, local), names));
    const far = ranked(150);
    expect(far.rows).toHaveLength(SCOREBOARD_ROWS);
    expect(far.rows.map((r) => r.rank)).toEqual([...Array.from({ length: SCOREBOARD_ROWS - 1 }, (_, i) => i + 1), 151]);
    expect(far.rows.at(-1)?.local).toBe(true);
    expect(far.more).toBe(200 - SCOREBOARD_ROWS);
    const near = ranked(3);
    expect(near.rows.map((r) => r.rank)).toEqual(Array.from({ length: SCOREBOARD_ROWS }, (_, i) => i + 1));
    expect(near.more).toBe(200 - SCOREBOARD_ROWS);
    const few = shownRows(scoreRows(view(scores.slice(0, 4), 1), names));
    expect([few.rows.length, few.more]).toEqual([4, 0]);
  });

  it('lists every joined player, with a zero line until their first kill or death', () => {
    const rows = scoreRows(view([{ slot: 2, kills: 1, deaths: 0 }], 1), names, [0, 1, 2]);
    expect(rows.map((r) => [r.rank, r.name, r.kills, r.deaths])).toEqual([
      [1, 'cy', 1, 0],
      [2, 'ann', 0, 0],
      [3, 'bob (you)', 0, 0],
    ]);
  });

  it("shows the round trip the host reported for each row, '-' (null) for rows it reported none for", () => {
    const scores = [0, 1, 2, 3].map((slot) => ({ slot, kills: 3 - slot, deaths: 0 }));
    const ping = (v: WorldView) => Object.fromEntries(scoreRows(v, names).map((r) => [r.name, r.pingMs]));
    // A gameserver game: the host knows only our round trip to the server.
    expect(ping(view(scores, 1, { pings: [{ slot: 1, ms: 23 }] }))).toEqual({ ann: null, 'bob (you)': 23, cy: null, dee: null });
    // Peer to peer: our round trip to each peer, none for ourselves.
    expect(ping(view(scores, 0, { pings: [{ slot: 1, ms: 4 }, { slot: 3, ms: 61 }] }))).toEqual({ 'ann (you)': null, bob: 4, cy: null, dee: 61 });
    // Offline with bots: no figures at all.
    expect(ping(view(scores, 0, { bots: [1, 2, 3] }))).toEqual({ 'ann (you)': null, bob: null, cy: null, dee: null });
  });

  it('reads a malformed ping entry from the host as unknown, not as a number', () => {
    const scores = [0, 1, 2, 3].map((slot) => ({ slot, kills: 3 - slot, deaths: 0 }));
    const pings = [{ slot: 0, ms: -1 }, { slot: 1, ms: Number.NaN }, { slot: 2, ms: '12' }, { slot: 3, ms: Number.POSITIVE_INFINITY }] as unknown as WorldView['pings'];
    expect(scoreRows(view(scores, 0, { pings }), names).map((r) => r.pingMs)).toEqual([null, null, null, null]);
    expect(scoreRows(view(scores, 0, { pings: undefined as unknown as WorldView['pings'] }), names).map((r) => r.pingMs)).toEqual([null, null, null, null]);
  });

  it('names the winner, ourselves marked "(you)" as on the rows, or a draw', () => {
    expect(winnerText(scoreRows(view([{ slot: 0, kills: 1, deaths: 0 }, { slot: 1, kills: 5, deaths: 0 }]), names))).toBe('bob wins');
    expect(winnerText(scoreRows(view([{ slot: 0, kills: 5, deaths: 0 }, { slot: 1, kills: 1, deaths: 0 }]), names))).toBe('ann (you) wins');
    expect(winnerText(scoreRows(view([{ slot: 2, kills: 1, deaths: 1 }, { slot: 1, kills: 1, deaths: 1 }]), names))).toBe('a draw at 1 kill; bob ranked first by slot');
    expect(winnerText(scoreRows(view([{ slot: 0, kills: 3, deaths: 0 }, { slot: 1, kills: 3, deaths: 0 }]), names))).toBe('a draw at 3 kills; ann (you) ranked first by slot');
    expect(winnerText([])).toBe('');
  });
});
