/**
 * The unread-reply attack on a masterserver: a client joins, then sends
 * `players` lines (each answered) and never reads a reply, so the replies
 * pile up in the kernel's buffers and then in the server's. The server must
 * close it (`--max-unread-kib`, default 256 KiB: counted as
 * `output-overflow`) before its memory grows. Shared by the bounded-work
 * test and `npm run bench:hostile -- --unread`.
 */
import { readFileSync } from 'node:fs';
import { formatJoin } from '../../src/shared/servers/masterProtocol';
import { LineClient } from './lineClient';
import type { ServerProcess } from './serverProcess';
import { waitFor } from './waitFor';

/** The server's RSS may grow by less than this (bench target). */
export const UNREAD_TARGET_BYTES = 20e6;

export interface UnreadResult {
  /** Lines asked for, and written before the server closed the connection. */
  lines: number;
  written: number;
  /** Whether the server closed the connection, and its close counters after. */
  closedByServer: boolean;
  closed: Record<string, number>;
  /** The server's RSS before and after (status page), and its peak RSS before and after (VmHWM; 0 where /proc is missing). */
  rss: { before: number; after: number };
  peak: { before: number; after: number };
}

type MasterStatus = { closed: Record<string, number>; memory: { rss: number } };
const status = async (m: ServerProcess) => (await (await fetch(`http://127.0.0.1:${m.http}/status.json`, { signal: AbortSignal.timeout(5000) })).json()) as MasterStatus;

/** VmHWM (peak resident set) of process `pid` in bytes, 0 where unknown. */
function peakRss(pid: number | undefined): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs the attack against masterserver `m` (a process); the client is gone when it returns. */
export async function runUnread(m: ServerProcess, lines = 500_000): Promise<UnreadResult> {
  const before = await status(m);
  const peakBefore = peakRss(m.child.pid);
  const c = await LineClient.open(m.tcp);
  try {
    c.send(formatJoin({ name: 'Unread', os: 'linux', maxPlayers: 8, url: 'http://example.invalid/' }));
    const reply = await c.next();
    if (reply !== 'join accepted') throw new Error(`join refused: ${reply}`);
    // From now on nothing is read: the replies pile up in the kernel buffers, then in the server.
    c.socket.pause();
    const batch = 10_000;
    const chunk = 'players: 1 max: 8\n'.repeat(batch);
    let written = 0;
    const pump = () => {
      while (written < lines && !c.ended) {
        written += batch;
        if (!c.socket.write(chunk)) return void c.socket.once('drain', pump);
      }
    };
    pump();
    // Closed by the server, or all written and left hanging (the server kept buffering): either ends the wait.
    await waitFor('the connection to close or every line to be written', () => c.ended || (written >= lines && c.socket.writableLength === 0), 60_000);
    const closedByServer = c.ended;
    const after = await status(m);
    return {
      lines,
      written: Math.min(written, lines),
      closedByServer,
      closed: after.closed,
      rss: { before: before.memory.rss, after: after.memory.rss },
      peak: { before: peakBefore, after: peakRss(m.child.pid) },
    };
  } finally {
    c.socket.destroy();
  }
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** The attack's figures against the target. */
export function describeUnread(r: UnreadResult): string {
  const growth = r.rss.after - r.rss.before;
  const peak = r.peak.after > 0 ? `, peak RSS ${mb(r.peak.before)} → ${mb(r.peak.after)}` : '';
  return [
    `unread replies: ${r.written.toLocaleString('en-US')} of ${r.lines.toLocaleString('en-US')} players lines written, never reading; connection ${r.closedByServer ? 'closed by the server' : 'NOT closed'} (closed: ${JSON.stringify(r.closed)})`,
    `  masterserver RSS ${mb(r.rss.before)} → ${mb(r.rss.after)} (${growth >= 0 ? '+' : ''}${mb(growth)}${peak}); target +<${mb(UNREAD_TARGET_BYTES)}: ${growth < UNREAD_TARGET_BYTES && r.closedByServer ? 'met' : 'MISSED'}`,
  ].join('\n');
}
