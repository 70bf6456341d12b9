/**
 * The match cvars (archived, so a host keeps its limits): `killlimit` kills
 * that win a match and `timelimit` its length in seconds, 0 for none. They
 * set the limits of the matches this game decides — offline, or as the match
 * authority (the lowest joined slot), which announces them to everyone.
 */
import { MAX_KILL_LIMIT, MAX_TIME_LIMIT_S } from '../../shared/game/match';
import { RULES } from '../../shared/game/rules';
import type { HostService } from './hostService';

export function registerMatchCvars(host: HostService): void {
  const killlimit = host.addCvar({
    name: 'killlimit',
    type: 'int',
    default: RULES.match.killLimit,
    min: 0,
    max: MAX_KILL_LIMIT,
    help: 'kills that win a match, 0 for none (the match authority\'s counts: offline, or the lowest joined slot)',
    flags: { archive: true },
  });
  const timelimit = host.addCvar({
    name: 'timelimit',
    type: 'int',
    default: RULES.match.timeLimitS,
    min: 0,
    max: MAX_TIME_LIMIT_S,
    help: 'length of a match in seconds, 0 for none (the match authority\'s counts)',
    flags: { archive: true },
  });
  const apply = (say: boolean): void => {
    const game = host.game?.game;
    if (!game) return;
    const now = game.setMatchLimits({ killLimit: killlimit.value, timeLimitS: timelimit.value });
    if (say && !now) host.print('match limits saved: the match authority (the lowest joined slot) decides this match; yours count when you decide one');
  };
  killlimit.onChange(() => apply(true));
  timelimit.onChange(() => apply(true));
  apply(false);
}
