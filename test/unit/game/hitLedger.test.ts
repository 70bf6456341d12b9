/**
 * The hit marker's verdict (src/shared/game/hitLedger.ts): a hit our screen
 * saw is confirmed or withdrawn by the game that decides it.
 *
 * On real deliveries: two players, each the real GameDriver + ClientGame
 * under the real session pipeline and P2pPeer on a memory LAN and a virtual
 * clock (sessionRig.ts). The shooter is flown by the skill-5 hunt pilot, the
 * victim sits still and reports the shots its game applies to its ship
 * (hitReports.ts). On a 5 ms link its game counts what the shooter saw, the
 * reports come back and the markers are confirmed; on a 150 ms link a laser
 * fired from close by reaches the victim's game late and, moved on by its
 * age, already past the ship — the victim's game never counts it (a miss, as
 * far as the game that decides is concerned), no report comes, and the
 * marker is withdrawn when the timeout runs out.
 */
import { describe, expect, it } from 'vitest';
import { GameDriver } from '../../../src/shared/protocol/gameDriver';
import { ClientGame } from '../../../src/shared/game/clientGame';
import { HIT_VERDICT_TIMEOUT_MS, HitLedger, type HitVerdict, type VerdictSource } from '../../../src/shared/game/hitLedger';
import { createHuntMemory, huntInput } from '../../../src/shared/game/pilots/hunt';
import type { SeenHit } from '../../../src/shared/game/shotWatch';
import { worldView, type ObjectView } from '../../../src/shared/game/view';
import { NO_INPUT } from '../../../src/shared/sim/types';
import { MemoryNet } from '../../support/memoryNet';
import { p2pNodeWith, runUntil } from '../../support/sessionRig';
import { VirtualClock } from '../../support/virtualClock';
import { boltView, duelView } from '../../support/duelViews';

interface Shooter {
  driver: GameDriver;
  seen: { hit: SeenHit; at: number }[];
  verdicts: { verdict: HitVerdict; at: number }[];
}

/** The shooter (slot 0, hunt pilot) and the still victim (slot 1) on a link of `latencyMs` one way. */
function fight(latencyMs: number) {
  const clock = new VirtualClock();
  const net = new MemoryNet(clock, latencyMs);
  const memory = createHuntMemory(11);
  const ledger = new HitLedger();
  const shooter: Shooter = { driver: null as unknown as GameDriver, seen: [], verdicts: [] };
  /** Shots the victim's game applied to its ship, by ShotWatch key (the shooter's ids are below 0x10000 here). */
  const counted = new Set<string>();
  const a = p2pNodeWith(net, clock, 'shooter', () => {
    shooter.driver = new GameDriver({
      clock,
      game: new ClientGame({ match: { killLimit: 0, timeLimitS: 0 } }),
      playerName: () => 'shooter',
      sendFrequency: () => 20,
      autoJoin: () => true,
      input: (game) => huntInput(game.curr, game.localSlot, memory, 5),
      onTick: (game) => {
        const seen: SeenHit[] = [];
        for (const verdict of ledger.tick(worldView(game), game, clock.now(), seen)) shooter.verdicts.push({ verdict, at: clock.now() });
        for (const hit of seen) shooter.seen.push({ hit, at: clock.now() });
      },
    });
    shooter.driver.start();
    return shooter.driver;
  });
  a.session.member.connect(clock.now());
  runUntil(clock, 'the shooter started the game', () => a.session.member.state === 'connected');
  let victim: GameDriver | null = null;
  const b = p2pNodeWith(net, clock, 'victim', () => {
    victim = new GameDriver({
      clock,
      game: new ClientGame({ match: { killLimit: 0, timeLimitS: 0 } }),
      playerName: () => 'victim',
      sendFrequency: () => 20,
      autoJoin: () => true,
      input: () => NO_INPUT,
      onTick: (game) => {
        for (const e of game.events) if (e.type === 'hit' && e.slot === game.localSlot && (e.cause === 'laser' || e.cause === 'missile') && e.id !== undefined) counted.add(`${e.cause}${e.by}:${e.id}`);
      },
    });
    victim.start();
    return victim;
  });
  b.session.member.connect(clock.now());
  runUntil(clock, 'both ships in one game', () => shooter.driver.game.curr.ships.length === 2 && victim !== null && victim.game.curr.ships.length === 2, 20_000);
  const verdictOf = (key: string) => shooter.verdicts.find((v) => v.verdict.key === key);
  /** Plays until `n` seen hits have their verdicts. */
  const untilVerdicts = (n: number) => runUntil(clock, `${n} hits seen and resolved`, () => shooter.seen.length >= n && shooter.seen.every((s) => verdictOf(s.hit.key)), 60_000);
  return { clock, shooter, counted, verdictOf, untilVerdicts, ledger };
}

describe('hit verdicts on real deliveries', () => {
  it('a laser that hit as the victim reports: the victim counted it, its report came back, the marker is confirmed before the timeout', () => {
    const f = fight(5);
    f.untilVerdicts(3);
    const confirmed = f.shooter.seen.filter((s) => f.verdictOf(s.hit.key)?.verdict.state === 'confirmed');
    console.log(`5 ms link: ${f.shooter.seen.length} hits seen, ${confirmed.length} confirmed, reports back after ${confirmed.map((s) => f.verdictOf(s.hit.key)!.at - s.at).join(', ')} ms`);
    expect(confirmed.length).toBeGreaterThan(0);
    for (const s of f.shooter.seen) {
      const v = f.verdictOf(s.hit.key)!;
      // The verdict is the victim game's word: confirmed exactly when it counted the shot.
      expect(v.verdict.state).toBe(f.counted.has(s.hit.key) ? 'confirmed' : 'withdrawn');
      if (v.verdict.state === 'confirmed') expect(v.at - s.at).toBeLessThan(HIT_VERDICT_TIMEOUT_MS);
    }
  });

  it('a laser the victim did not take (150 ms late, already past its ship): no report, the marker is withdrawn at the timeout', () => {
    const f = fight(150);
    f.untilVerdicts(3);
    const withdrawn = f.shooter.seen.filter((s) => f.verdictOf(s.hit.key)?.verdict.state === 'withdrawn');
    console.log(`150 ms link: ${f.shooter.seen.length} hits seen, ${withdrawn.length} withdrawn, ${f.counted.size} counted by the victim`);
    expect(withdrawn.length).toBeGreaterThan(0);
    for (const s of f.shooter.seen) {
      const v = f.verdictOf(s.hit.key)!;
      expect(v.verdict.state).toBe(f.counted.has(s.hit.key) ? 'confirmed' : 'withdrawn');
      // Withdrawn at the first tick the timeout has run out.
      if (v.verdict.state === 'withdrawn') expect(v.at - s.at).toBeGreaterThanOrEqual(HIT_VERDICT_TIMEOUT_MS);
      if (v.verdict.state === 'withdrawn') expect(v.at - s.at).toBeLessThan(HIT_VERDICT_TIMEOUT_MS + 25);
    }
  });
});

// Views of a bolt (ours, slot 0) meeting ship 1 between two ticks (duelViews.ts, as in shotWatch.test.ts).
const laser = (id: number, z: number) => boltView(0, id, z);
const view = (tick: number, objects: ObjectView[]) => duelView(tick, objects);
/** A game that decides (offline, shared world) or not, with reports to hand out. */
const source = (decidesOurHits: boolean, reports: string[] = []): VerdictSource & { reports: string[] } => ({ decidesOurHits, reports, takeCountedShots: () => reports.splice(0) });

describe('HitLedger', () => {
  it('offline (our game decides): a hit is confirmed in the tick it is seen', () => {
    const ledger = new HitLedger();
    const game = source(true);
    expect(ledger.tick(view(1, [laser(5, -80)]), game, 25)).toEqual([]);
    expect(ledger.tick(view(2, []), game, 50)).toEqual([{ key: 'laser0:5', state: 'confirmed' }]);
    expect(ledger.waiting).toBe(0);
  });

  it('a report that comes before our screen sees the hit confirms it the moment it is seen; a report after the timeout still turns it confirmed', () => {
    const ledger = new HitLedger();
    const game = source(false, ['laser0:5']);
    ledger.tick(view(1, [laser(5, -80), laser(6, -80)]), game, 25);
    // Bolt 5 was reported before it was seen; bolt 6 waits.
    expect(ledger.tick(view(2, []), game, 50)).toEqual([{ key: 'laser0:5', state: 'confirmed' }]);
    expect(ledger.waiting).toBe(1);
    let t = 50;
    let out: ReturnType<HitLedger['tick']> = [];
    for (let tick = 3; out.length === 0; tick++) out = ledger.tick(view(tick, []), game, (t += 25));
    expect(out).toEqual([{ key: 'laser0:6', state: 'withdrawn' }]);
    expect(t - 50).toBe(HIT_VERDICT_TIMEOUT_MS);
    game.reports.push('laser0:6');
    expect(ledger.tick(view(100, []), game, t + 500)).toEqual([{ key: 'laser0:6', state: 'confirmed' }]);
  });
});
