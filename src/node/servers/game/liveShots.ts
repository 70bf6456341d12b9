/**
 * The lasers and missiles a gameserver relayed lately, so a victim's report
 * of one that hit its ship (a reliable killObject of the shooter's object
 * naming the victim, src/shared/game/hitReports.ts) is passed on to every
 * other player instead of being dropped (and counted as `foreign`) as a
 * message about another player's object. A shot is
 * remembered for its time to live (capped as the clients cap it) and a few
 * seconds of slack for the report's way back; at most MAX_SHOTS at once,
 * oldest forgotten first. A report is taken once.
 */
import { STEP_MS } from '../../../shared/sim/types';
import { MAX_REMOTE_LASER_TTL } from '../../../shared/game/kinds/laser';
import { RULES } from '../../../shared/game/rules';
import type { RemoteEvent } from '../../../shared/wire/types';

/** Most shots remembered (255 players firing three bolts 7 times a second for 2 s is 10,710). */
const MAX_SHOTS = 16_384;
/** How long after a shot's end a report of it is still believed (a report may be resent for a while), ms. */
const REPORT_SLACK_MS = 5000;

export class LiveShots {
  /** Wire id → server time until which a report of it is taken. */
  private readonly shots = new Map<number, number>();

  /** A laser or missile relayed at `now` (other events are ignored). */
  relayed(event: RemoteEvent, now: number): void {
    if (event.type !== 'createLaser' && event.type !== 'createMissile') return;
    const maxTtl = event.type === 'createLaser' ? MAX_REMOTE_LASER_TTL : RULES.missile.ttlTicks;
    const ttl = Number.isFinite(event.ttl) ? Math.min(Math.max(0, event.ttl), maxTtl) : maxTtl;
    this.shots.delete(event.id);
    if (this.shots.size >= MAX_SHOTS) this.shots.delete(this.shots.keys().next().value as number);
    this.shots.set(event.id, now + ttl * STEP_MS + REPORT_SLACK_MS);
  }

  /** A report of shot `id` at `now`: true (and forgotten) when it is a live shot this server relayed. */
  report(id: number, now: number): boolean {
    const until = this.shots.get(id);
    if (until === undefined) return false;
    this.shots.delete(id);
    return now <= until;
  }
}
