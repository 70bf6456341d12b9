/**
 * Bounded work per input: a flood of refused lines or renames costs a few
 * log lines, not one per line; a client that does not read its replies is
 * closed once they pile up, and the server's memory stays put.
 */
import { existsSync } from 'node:fs';
import pino from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMasterserver } from '../../src/node/servers/master/masterserver';
import { startSlotserver } from '../../src/node/servers/slot/slotserver';
import type { RunningServer } from '../../src/node/servers/common/types';
import { formatJoin } from '../../src/shared/servers/masterProtocol';
import { LineClient } from '../support/lineClient';
import { describeUnread, runUnread } from '../support/hostileUnread';
import { serverEntry, startServer, stopServers } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';

const servers: RunningServer[] = [];
const clients: LineClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.socket.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  stopServers();
});

beforeAll(() => {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npx electron-vite build" first`);
});

async function open(port: number): Promise<LineClient> {
  const c = await LineClient.open(port);
  clients.push(c);
  return c;
}

/** A pino logger at info whose JSON lines land in `lines`. */
const capturedLog = (lines: Record<string, unknown>[]) => pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });

/** A slotserver logging at info into `lines`. */
async function slotserver(lines: Record<string, unknown>[]) {
  const log = capturedLog(lines);
  const s = await startSlotserver({ name: 'Bounded', host: '127.0.0.1', port: 0, udpPort: 0, maxPlayers: 4, welcome: [], log });
  servers.push(s);
  return s;
}

describe('bounded work per input', () => {
  it('1 MB of refused lines (remove me, unjoined) writes at most 100 log lines', async () => {
    const lines: Record<string, unknown>[] = [];
    const s = await slotserver(lines);
    const before = lines.length;
    const c = await open(s.ports.tcp as number);
    const N = 100_000;
    c.socket.write('remove me\n'.repeat(N));
    await waitFor(`${N} replies`, () => c.lines.length >= N || c.ended, 30_000);
    const logged = lines.length - before;
    console.log(`1 MB of "remove me" (${N} lines) on one unjoined connection: ${c.lines.length} replies, ${logged} log lines`);
    expect(c.lines.length).toBe(N);
    expect(c.lines.every((l) => l === "you're not even joined")).toBe(true);
    expect(logged).toBeLessThanOrEqual(100);
  });

  it('50,000 renames write at most 100 log lines', async () => {
    const lines: Record<string, unknown>[] = [];
    const s = await slotserver(lines);
    const c = await open(s.ports.tcp as number);
    c.send('version: 1.0 join me: Renamer os: linux');
    expect(await c.next()).toMatch(/^join from .* accepted/);
    await c.take(4);
    const before = lines.length;
    const N = 50_000;
    c.socket.write(Array.from({ length: N }, (_, i) => `my new name: Renamer${i % 2}\n`).join(''));
    await waitFor(`${N} renames answered`, () => c.lines.length >= N || c.ended, 30_000);
    const logged = lines.length - before;
    console.log(`${N} renames: ${c.lines.length} replies, ${logged} log lines`);
    expect(c.lines.length).toBe(N);
    expect(logged).toBeLessThanOrEqual(100);
  });

  it('25,000 joins, re-joins and removes on one masterserver connection write at most 100 log lines', async () => {
    const lines: Record<string, unknown>[] = [];
    const m = await startMasterserver({ name: 'Bounded', host: '127.0.0.1', port: 0, log: capturedLog(lines) });
    servers.push(m);
    const c = await open(m.ports.tcp as number);
    const join = formatJoin({ name: 'Looper', os: 'linux', maxPlayers: 8, url: 'http://example.invalid/' });
    const N = 5_000;
    // Per round: a join, a re-join (replaces the entry), a remove, and a join after the remove (a new entry).
    c.socket.write(`${join}\n${join}\nremove me\n${join}\nremove me\n`.repeat(N));
    await waitFor(`${5 * N} replies`, () => c.lines.length >= 5 * N || c.ended, 30_000);
    console.log(`masterserver: ${N} rounds of join, re-join, remove, join, remove: ${c.lines.length} replies, ${lines.length} log lines`);
    expect(c.lines.length).toBe(5 * N);
    expect(lines.length).toBeLessThanOrEqual(100);
  });

  it('a masterserver client not reading 500,000 replies is closed, and memory does not grow without bound', async () => {
    const m = await startServer(['masterserver', '--port', '0', '--http-port', '0']);
    const r = await runUnread(m, 500_000);
    console.log(describeUnread(r));
    expect(r.closedByServer).toBe(true);
    expect(r.closed['output-overflow']).toBe(1);
    // Breakage guard: unbounded buffering grew it by 41 MB for 500,000 replies.
    expect(r.rss.after - r.rss.before).toBeLessThan(30e6);
  });
});
