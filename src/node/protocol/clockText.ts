/**
 * The session clock in words: the lines a player reads while the clock
 * synchronises before a join, and the `players` listing's clock line. `who`
 * is the time source as the session describes it (a player's name, else its
 * address).
 */
import type { ClockReport, ClockStatus } from '../../shared/session/sessionClock';

const fixed = (v: number, digits: number) => v.toFixed(digits);

/** One console line for a clock report. */
export function clockReportLine(report: ClockReport, who: string): string {
  switch (report.kind) {
    case 'waiting':
      return `synchronising the clock with ${report.source ? who : 'the game'} before joining…`;
    case 'synced':
      return `clock synchronised with ${who} (offset ${fixed(report.offsetMs, 1)} ms ± ${fixed(report.errorMs, 1)}, round trip ${fixed(report.rttMs, 0)} ms)`;
    case 'synced-best-effort': {
      const error = Number.isFinite(report.errorMs) ? ` ± ${fixed(report.errorMs, 1)}` : '';
      return `clock synchronised with ${who} as well as this link allows within ${report.waitMs / 1000} s (offset ${fixed(report.offsetMs, 1)} ms${error}, round trip ${fixed(report.rttMs, 0)} ms); it goes on improving`;
    }
    case 'no-reply':
      return `no clock reply from ${who} within ${report.giveUpMs / 1000} s; using this machine's clock (remote ships may be placed less exactly)`;
  }
}

/** The `players` listing's line on the common game time. */
export function clockStatusLine(status: ClockStatus, who: string): string {
  switch (status.kind) {
    case 'reference':
      return "clock: this machine is the game's time reference";
    case 'unsynchronised':
      return 'clock: not synchronised';
    case 'no-reply':
      return `clock: no reply from ${who} yet${status.usingOwnClock ? " (using this machine's clock)" : ''}`;
    case 'sync':
      return `clock: ${status.good ? 'synchronised' : 'synchronising'} with ${who}, offset ${fixed(status.offsetMs, 1)} ms ± ${Number.isFinite(status.errorMs) ? fixed(status.errorMs, 2) : '?'}, round trip ${fixed(status.rttMs, 0)} ms, ${status.kept}/${status.samples} samples`;
  }
}
