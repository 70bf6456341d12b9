/**
 * How well a `hunt` pilot flies, by skill 1 (a beginner) to 5 (an ace).
 *
 * | skill | reaction   | aim error | leads? | fires when the bolt passes within | weapons                                |
 * | ----- | ---------- | --------- | ------ | --------------------------------- | -------------------------------------- |
 * | 1     | 24 ticks   | 12 %      | no     | 30 % of the range                 | lasers                                 |
 * | 2     | 16 ticks   | 8 %       | no     | 20 %                              | lasers                                 |
 * | 3     | 10 ticks   | 5 %       | yes    | 12 %                              | lasers, missiles                       |
 * | 4     | 6 ticks    | 2.5 %     | yes    | 8 %                               | lasers, missiles, mines, afterburner   |
 * | 5     | 2 ticks    | 1 %       | yes    | 5 % (or 8 units)                  | everything: also EMP                   |
 *
 * - reaction: the pilot re-decides what to do (which enemy, fight, flee,
 *   collect) only every this many ticks (40 ticks = 1 s), so a new enemy or a
 *   new danger is noticed that late;
 * - aim error: at each decision a seeded offset, up to this share of the
 *   distance along each axis, is added to the aim point;
 * - leads: aims where the target will be when the bolt gets there (laser
 *   speed plus own velocity), else straight at it;
 * - fires when: the laser trigger is pulled when the aim point lies off the
 *   nose by less than this share of its distance.
 * Every skill steers round asteroids, collects extras when alone and flies
 * to an energy field when low.
 */

export interface Skill {
  /** Ticks between two decisions. */
  reactionTicks: number;
  /** Largest aim offset per axis, as a share of the distance to the aim point. */
  aimError: number;
  /** Aim ahead of a moving target. */
  lead: boolean;
  /** Fire when the aim point is off the nose by less than this share of its distance… */
  fireCone: number;
  /** …or by less than this many units. */
  fireWithin: number;
  missiles: boolean;
  mines: boolean;
  afterburner: boolean;
  emp: boolean;
}

const SKILLS: readonly Skill[] = Object.freeze([
  { reactionTicks: 24, aimError: 0.12, lead: false, fireCone: 0.3, fireWithin: 0, missiles: false, mines: false, afterburner: false, emp: false },
  { reactionTicks: 16, aimError: 0.08, lead: false, fireCone: 0.2, fireWithin: 0, missiles: false, mines: false, afterburner: false, emp: false },
  { reactionTicks: 10, aimError: 0.05, lead: true, fireCone: 0.12, fireWithin: 0, missiles: true, mines: false, afterburner: false, emp: false },
  { reactionTicks: 6, aimError: 0.025, lead: true, fireCone: 0.08, fireWithin: 6, missiles: true, mines: true, afterburner: true, emp: false },
  { reactionTicks: 2, aimError: 0.01, lead: true, fireCone: 0.05, fireWithin: 8, missiles: true, mines: true, afterburner: true, emp: true },
].map((s) => Object.freeze(s)));

/** Lowest and highest skill. */
export const MIN_SKILL = 1;
export const MAX_SKILL = 5;
/** The skill a bot gets when none is named. */
export const DEFAULT_SKILL = 3;

/** Whether `n` is a skill (an integer from MIN_SKILL to MAX_SKILL). */
export function isSkill(n: number): boolean {
  return Number.isInteger(n) && n >= MIN_SKILL && n <= MAX_SKILL;
}

/** The table row of `skill` (rounded and clamped into 1…5; NaN counts as DEFAULT_SKILL). */
export function skillOf(skill: number): Skill {
  const s = Number.isFinite(skill) ? Math.round(skill) : DEFAULT_SKILL;
  return SKILLS[Math.min(MAX_SKILL, Math.max(MIN_SKILL, s)) - 1]!;
}
