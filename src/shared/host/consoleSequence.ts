import type { HostSnapshot } from './contract';

/**
 * The page's side of console numbering (ConsoleLine.seq): after showing a
 * snapshot's backlog, a console line or clear is applied only when it is
 * newer than everything shown so far. A line the host queued before it
 * answered hello is in the backlog and may still arrive as an event after
 * the answer; without this it would be printed twice.
 */
export class ConsoleSequence {
  private last: number;

  constructor(snapshot: Pick<HostSnapshot, 'consoleSeq'>) {
    this.last = snapshot.consoleSeq;
  }

  /** True when `event` has not been shown yet; it then counts as shown. */
  fresh(event: { seq: number }): boolean {
    if (event.seq <= this.last) return false;
    this.last = event.seq;
    return true;
  }
}
