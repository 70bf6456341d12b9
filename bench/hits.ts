/**
 * `npm run bench:hits [-- hits [seconds]]`: do the shooter's screen and the
 * victim's game agree on hits? In the Parsec protocols the victim's game
 * decides; the shooter's hit marker shows what its own screen saw at once.
 *
 * For each protocol (p2p, slotserver, gameserver) at 0, 50 and 150 ms
 * one-way lag with 5 % loss, scripted duels of two skill-5 hunt pilots are
 * played in process on a virtual clock through the seeded link conditioner
 * (test/support/hitDuel.ts: the real GameDriver + ClientGame, session
 * pipeline and membership on a memory LAN; for the gameserver its real
 * forwarding core, test/support/memoryGameserver.ts, with a memory end for
 * its socket and the seats handed out in place of the TCP join), duel after
 * duel (seed 1, 2, …) until the case has at least `hits` shooter-seen hits
 * (default 1000). Each duel counts `seconds` of play (default 120) after a
 * 2 s warm-up. Per case it prints:
 * - seen: hits the shooter's screen showed (ShotWatch on its own world views);
 * - confirmed %: of those, the share the victim's game also counted (share A);
 * - counted: hits the victim's game applied to its ship;
 * - missed by shooter %: of those, the share the shooter's screen showed as
 *   misses (share B);
 * - marker right %: of the seen hits, the share whose hit marker ended the
 *   way the victim's game decided — confirmed by its report when it counted
 *   the shot, withdrawn (no report within 1.5 s) when it did not
 *   (src/shared/game/hitLedger.ts, as the HUD runs it);
 * - kills named: of the deaths the victims' games decided, how many the
 *   other player's game showed with the same weapon (killObject's cause).
 * A shot is a laser bolt or a missile, matched across the two games by its
 * owner and id. Both players shoot, so each duel counts both directions.
 * Then the wall time of the case and of the whole run.
 *
 * argv: hits (per case, default 1000), seconds (per duel, default 120).
 */
import { addTally, emptyTally, runHitDuel, type HitProtocol, type HitTally } from '../test/support/hitDuel';

const hits = Number(process.argv[2] ?? 1000);
const seconds = Number(process.argv[3] ?? 120);
if (!(hits >= 1) || !(seconds >= 1)) {
  console.error('usage: npm run bench:hits [-- hits-per-case [seconds-per-duel]]');
  process.exit(1);
}
const LOSS = 5;
const protocols: HitProtocol[] = ['p2p', 'slotserver', 'gameserver'];
const lags = [0, 50, 150];

const pct = (part: number, whole: number): string => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`);
const started = performance.now();
console.log(`hits as the shooter's screen saw them (ShotWatch) against hits the victim's game counted (it decides), skill-5 duels, lasers and missiles, ≥ ${hits} seen hits per case, ${seconds} s per duel`);
console.log(
  ['protocol'.padEnd(10), 'lag'.padStart(6), 'loss'.padStart(5), 'duels'.padStart(5), 'seen'.padStart(6), 'confirmed'.padStart(10), 'counted'.padStart(8), 'missed by shooter'.padStart(18), 'marker right'.padStart(13), 'kills named'.padStart(12), 'wall'.padStart(7)].join(' '),
);
for (const protocol of protocols) {
  for (const lagMs of lags) {
    const t0 = performance.now();
    let total: HitTally = emptyTally();
    let duels = 0;
    while (total.seen < hits) {
      duels++;
      total = addTally(total, await runHitDuel({ protocol, lagMs, lossPct: LOSS, seed: duels, seconds }));
    }
    console.log(
      [
        protocol.padEnd(10),
        `${lagMs} ms`.padStart(6),
        `${LOSS} %`.padStart(5),
        String(duels).padStart(5),
        String(total.seen).padStart(6),
        pct(total.seenAndCounted, total.seen).padStart(10),
        String(total.counted).padStart(8),
        pct(total.countedNotSeen, total.counted).padStart(18),
        pct(total.seen - total.markerWrong, total.seen).padStart(13),
        `${total.killsNamed}/${total.kills}`.padStart(12),
        `${((performance.now() - t0) / 1000).toFixed(1)} s`.padStart(7),
      ].join(' '),
    );
  }
}
console.log(`wall time ${((performance.now() - started) / 1000).toFixed(1)} s`);
