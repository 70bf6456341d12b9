/**
 * A victim's reports of the shots that hit it (src/shared/game/hitReports.ts)
 * through a gameserver: the real forwarding core in process
 * (test/support/memoryGameserver.ts) passes each report on (liveShots.ts:
 * without it a report, naming another player's object, would be dropped as
 * `foreign` and no marker confirmed), strikes nobody for it, and the
 * shooters' markers are confirmed by them. Two skill-5 hunt pilots duel
 * on a virtual clock through the link conditioner (50 ms one way, 5 % loss).
 */
import { describe, expect, it } from 'vitest';
import { LiveShots } from '../../../src/node/servers/game/liveShots';
import { runHitDuel } from '../../support/hitDuel';

describe('hit reports through a gameserver', () => {
  it('are passed on without a strike, and confirm the shooters\' markers', async () => {
    const t = await runHitDuel({ protocol: 'gameserver', lagMs: 50, lossPct: 5, seed: 3, seconds: 30 });
    console.log(`gameserver, 50 ms, 5 %: ${t.seen} hits seen, ${t.seenAndCounted} counted by the victim, ${t.markerConfirmed} markers confirmed by its report, ${t.markerWrong} markers wrong, ${t.strikes} strikes`);
    expect(t.strikes).toBe(0);
    expect(t.seenAndCounted).toBeGreaterThan(0);
    expect(t.markerConfirmed).toBeGreaterThan(0);
  });

  it('a report names a laser or missile the server relayed, within its life and a few seconds, once', () => {
    const shots = new LiveShots();
    shots.relayed({ type: 'createLaser', id: 0x1_0007, pos: { x: 0, y: 0, z: 0 }, vel: { x: 0, y: 0, z: -600 }, ttl: 40 }, 1000);
    shots.relayed({ type: 'createExtra', id: 0x1_0008, kind: 0, pos: { x: 0, y: 0, z: 0 } }, 1000);
    expect(shots.report(0x1_0008, 1100)).toBe(false);
    expect(shots.report(0x1_0007, 1100)).toBe(true);
    expect(shots.report(0x1_0007, 1100)).toBe(false);
    shots.relayed({ type: 'createMissile', id: 0x2_0001, pos: { x: 0, y: 0, z: 0 }, vel: { x: 0, y: 0, z: -100 }, targetSlot: 1, ttl: 240 }, 0);
    expect(shots.report(0x2_0001, 6000 + 5001)).toBe(false);
  });
});
