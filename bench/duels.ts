/**
 * `npm run bench:duels [-- duels [kills [seconds]]]`: duels of a skill-5 hunt
 * pilot against a skill-1 one in the pure simulation (no network, no clock),
 * each with its own seed, the skill-5 pilot taking slot 0 and slot 1 in
 * turn. Prints each duel's result and the total.
 */
import { runDuel } from '../src/shared/game/pilots/duel';

const duels = Number(process.argv[2] ?? 20);
const kills = Number(process.argv[3] ?? 3);
const seconds = Number(process.argv[4] ?? 180);
const [strong, weak] = [5, 1];
let won = 0;
let lost = 0;
const started = performance.now();
for (let i = 0; i < duels; i++) {
  const seed = 1000 + i;
  const strongSlot = i % 2;
  const skills: [number, number] = strongSlot === 0 ? [strong, weak] : [weak, strong];
  const r = runDuel({ seed, skills, kills, seconds });
  const me = strongSlot;
  const them = 1 - strongSlot;
  const verdict = r.winner === me ? 'won' : r.winner === null ? 'draw' : 'lost';
  if (verdict === 'won') won++;
  else if (verdict === 'lost') lost++;
  console.log(
    `duel ${String(i + 1).padStart(2)} seed ${seed}: skill ${strong} ${verdict.padEnd(4)} ${r.kills[me]}–${r.kills[them]} in ${(r.ticks / 40).toFixed(0).padStart(3)} s` +
      `  (skill ${strong}: ${r.shots[me]} shots ${r.hits[me]} hits ${r.missiles[me]} missiles ${r.mines[me]} mines ${r.pickups[me]} pickups;` +
      ` skill ${weak}: ${r.shots[them]} shots ${r.hits[them]} hits ${r.pickups[them]} pickups)`,
  );
}
console.log(`skill ${strong} won ${won} of ${duels} duels (${lost} lost, ${duels - won - lost} drawn) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
