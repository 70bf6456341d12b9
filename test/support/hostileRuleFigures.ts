/**
 * The figures of a rule-cheaters run (hostileRules.ts) against their targets:
 * what `npm run bench:hostile -- --rule-cheaters` prints, and the one line
 * test/soak/hostileWeapons.test.ts logs before it asserts.
 */
import { RULES } from '../../src/shared/game/rules';
import { FAR_CLAIMS, type RuleCheatResult, type RulePlayer } from './hostileRules';

/** The targets the bench holds the figures against (the integration test asserts the same). */
export const RULE_TARGETS = {
  /** The honest shooter's bolts at the observer: more than this share of those fired, bar its last four shots (still in flight). */
  bolts: 0.9,
  /** The honest shooter's states at the observer. */
  states: 0.9,
} as const;

/** One figure against its target (`met` undefined: for information, no target). */
export interface RuleFigure {
  figure: string;
  value: number | string;
  /** Out of how many (events sent), where that is the measure. */
  of?: number;
  /** What stands behind the value (a share, the parts of a sum, a reason). */
  note?: string;
  target?: string;
  met?: boolean;
}

/** The figures of one player (a cheat, or an honest player). */
export interface RulePlayerFigures {
  player: string;
  role: 'cheat' | 'honest';
  what: string;
  figures: RuleFigure[];
}

/** Every figure of a run, per player, each against its target where it has one. */
export function ruleFigures(r: RuleCheatResult): RulePlayerFigures[] {
  const k = (kind: string) => r.final.strikes[kind] ?? 0;
  const atLeast = (figure: string, value: number, min: number): RuleFigure => ({ figure, value, target: `≥ ${min}`, met: value >= min });
  const exactly = (figure: string, value: number, want: number, of?: number): RuleFigure => ({ figure, value, ...(of === undefined ? {} : { of }), target: `= ${want}`, met: value === want });
  const seatOf = (name: string) => r.final.players.find((p) => p.name === name);
  /** Whether it was dropped; a target only where the strikes should add up to the limit. */
  const dropped = (p: RulePlayer, expected?: { reason: RegExp; words: string }): RuleFigure => {
    const seat = seatOf(p.name);
    const value = p.removed !== undefined ? 'yes' : 'no';
    const note = p.removed ?? (seat ? `seated, ${seat.strikes} strike${seat.strikes === 1 ? '' : 's'}` : undefined);
    const f: RuleFigure = { figure: 'dropped', value, ...(note === undefined ? {} : { note }) };
    return expected ? { ...f, target: `yes, ${expected.words}`, met: p.removed !== undefined && expected.reason.test(p.removed) } : f;
  };
  const out: RulePlayerFigures[] = [
    {
      player: r.missiles.name,
      role: 'cheat',
      what: 'missiles without ammunition',
      figures: [exactly('missiles forwarded', r.missiles.received, RULES.missile.startAmmo, r.missiles.sent), atLeast('missile-ammo strikes', k('missile-ammo'), 3), dropped(r.missiles)],
    },
    {
      player: r.mines.name,
      role: 'cheat',
      what: 'mines at 10× the rate',
      figures: [
        exactly('mines forwarded', r.mines.received, RULES.mine.startAmmo, r.mines.sent),
        { ...atLeast('mine-rate + mine-ammo strikes', k('mine-rate') + k('mine-ammo'), 10), note: `${k('mine-rate')} + ${k('mine-ammo')}` },
        dropped(r.mines, { reason: /strikes within .*mine-/, words: 'for its mine- strikes' }),
      ],
    },
    {
      player: r.claim.name,
      role: 'cheat',
      what: 'a kill credited to a friend who never fired',
      figures: [exactly('kill claims forwarded', r.claim.received, 0, r.claim.sent), exactly('false-kill-claim strikes', k('false-kill-claim'), 1), dropped(r.claim)],
    },
    {
      player: r.parked.name,
      role: 'cheat',
      what: `hits ignored (${r.bolts.sent} bolts fired through it, damage 0 reported)`,
      figures: [atLeast('ignores-hits strikes', k('ignores-hits'), 2), dropped(r.parked)],
    },
  ];
  if (r.pickup) {
    out.push({
      player: r.pickup.name,
      role: 'cheat',
      what: "the server's extras claimed from afar",
      // Every claim it made struck, and it makes FAR_CLAIMS (one a spawn interval) unless the server's extras run out.
      figures: [exactly('pickups granted', r.pickup.received, 0, r.pickup.sent), atLeast('far-pickup strikes', k('far-pickup'), Math.max(FAR_CLAIMS, r.pickup.sent)), dropped(r.pickup)],
    });
  }
  for (const name of r.honestNames) {
    const seat = seatOf(name);
    const figures: RuleFigure[] = [
      seat ? exactly('strikes', seat.strikes, 0) : { figure: 'strikes', value: 'unknown (not seated)', target: '= 0', met: false },
      { figure: 'seated', value: seat ? 'yes' : 'no', target: 'yes', met: seat !== undefined },
    ];
    let what = 'watches';
    if (name === 'honest-shooter') {
      what = 'fires level-3 lasers at the parked cheater';
      const boltsFloor = RULE_TARGETS.bolts * (r.bolts.sent - 3 * 4);
      const share = r.shooterStates.sent > 0 ? r.shooterStates.received / r.shooterStates.sent : 0;
      figures.push(
        { figure: 'bolts forwarded', value: r.bolts.received, of: r.bolts.sent, target: `> ${boltsFloor.toFixed(1)} (${100 * RULE_TARGETS.bolts} % of those before its last 4 shots)`, met: r.bolts.received > boltsFloor },
        { figure: 'states forwarded', value: r.shooterStates.received, of: r.shooterStates.sent, note: `${(100 * share).toFixed(1)} %`, target: `> ${100 * RULE_TARGETS.states} %`, met: share > RULE_TARGETS.states },
      );
    } else if (name === 'honest-friend') what = 'named as the killer by the claim cheat, never fires';
    else if (name === 'honest') what = 'watches';
    else if (name === 'honest-armed' && r.armed) {
      what = "fires its start ammunition at the cooldowns, flies to one of the server's extras and picks it up there";
      const all = (figure: string, x: { sent: number; received: number }) => exactly(figure, x.received, x.sent, x.sent);
      // A pickup gets through when the server gives it the extra (its answer to everyone names the armed player).
      figures.push(all('missiles forwarded', r.armed.missiles), all('mines forwarded', r.armed.mines), { ...all('pickups granted', r.armed.pickups), ...(r.armed.pickups.sent === 0 ? { met: false, note: 'no claim made' } : {}) });
    }
    out.push({ player: name, role: 'honest', what, figures });
  }
  return out;
}

/** Whether every figure with a target met it and no wait ran out. */
export const ruleTargetsMet = (r: RuleCheatResult): boolean => r.timeouts.length === 0 && ruleFigures(r).every((p) => p.figures.every((f) => f.met !== false));

/** The figures, one line a player, each against its target, for the bench and the test's log. */
export function describeRuleCheaters(r: RuleCheatResult): string {
  const mark = (f: RuleFigure) =>
    `${f.figure} ${f.value}${f.of === undefined ? '' : ` of ${f.of}`}${f.note === undefined ? '' : ` (${f.note})`}${f.target === undefined ? '' : ` (target ${f.target}: ${f.met ? 'met' : 'MISSED'})`}`;
  const dropKinds = Object.entries(r.final.strikes).filter(([kind]) => /^(missile|mine|emp)-|false-kill-claim|far-pickup/.test(kind));
  return [
    `rule cheaters: strikes by kind ${JSON.stringify(r.final.strikes)}; players dropped ${r.final.kicked}; events dropped for the rules ${dropKinds.reduce((n, [, v]) => n + v, 0)}`,
    ...ruleFigures(r).map((p) => `  ${p.role === 'cheat' ? 'cheater' : 'honest'} ${p.player} — ${p.what}: ${p.figures.map(mark).join('; ')}`),
    `  states sent: ${JSON.stringify(r.statesSent)}`,
    ...r.timeouts.map((t) => `  MISSED: ${t}`),
    `  rule cheaters' targets: ${ruleTargetsMet(r) ? 'all met' : 'MISSED'}`,
  ].join('\n');
}
