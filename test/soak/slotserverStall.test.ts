/**
 * Stalls in a slotserver game, with the built server and bots: game packets
 * go peer to peer, and the slotserver runs the table over TCP only.
 * - A bot process stopped (SIGSTOP): the others drop it after the alive
 *   timeout, as p2p peers do, though the slotserver still lists it; when it
 *   is continued it is back in its slot.
 * - The slotserver stopped: the bots print "server not responding (n s)"
 *   (its time port is silent) while they go on playing each other, and say
 *   when it answers again.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MANAGED_ALIVE_TIMEOUT_MS } from '../../src/shared/session/managedPeer';
import type { BotWatch } from '../support/botProcess';
import { stoppableBots } from '../support/stoppableBots';
import { botEntry } from '../support/paths';
import { startServer, type ServerProcess } from '../support/serverProcess';

const bot = stoppableBots('slotserver');

const names = (b: BotWatch) => (b.players()?.players ?? []).map((p) => p.name).sort();

async function threeBots(): Promise<{ server: ServerProcess; b: BotWatch[] }> {
  if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
  const server = await startServer(['slotserver', '--name', 'Slots', '--port', '0', '--udp-port', '0', '--http-port', '0']);
  const target = `127.0.0.1:${server.tcp}`;
  const b = [bot('red', target, 1), bot('green', target, 2), bot('blue', target, 3)];
  for (const x of b) await x.until('all three joined', () => (x.players()?.players.filter((p) => p.joined).length === 3 ? true : undefined), 15_000);
  return { server, b };
}

describe('a slotserver game', () => {
  it('drops a frozen peer after the alive timeout, and takes it back when it runs again', { timeout: 60_000 }, async () => {
    const [red, green, blue] = (await threeBots()).b as [BotWatch, BotWatch, BotWatch];
    const t0 = Date.now();
    blue.child.kill('SIGSTOP');
    const droppedAfter: number[] = [];
    try {
      for (const x of [red, green]) {
        await x.until('blue dropped', () => (names(x).join() === 'green,red' ? true : undefined), 10_000);
        droppedAfter.push(Date.now() - t0);
      }
    } finally {
      blue.child.kill('SIGCONT');
    }
    for (const x of [red, green]) await x.until('blue back', () => (names(x).join() === 'blue,green,red' && x.players()?.players.every((p) => p.joined) ? true : undefined), 10_000);
    const frozenMs = Date.now() - t0;
    console.log(`slotserver game, blue stopped ${(frozenMs / 1000).toFixed(1)} s: dropped by red after ${droppedAfter[0]} ms, by green after ${droppedAfter[1]} ms (alive timeout ${MANAGED_ALIVE_TIMEOUT_MS} ms); ${red.prints().filter((l) => /blue/.test(l)).join(' / ')}`);
    for (const t of droppedAfter) {
      expect(t).toBeGreaterThanOrEqual(MANAGED_ALIVE_TIMEOUT_MS - 600);
      expect(t).toBeLessThan(MANAGED_ALIVE_TIMEOUT_MS + 3_000);
    }
    for (const x of [red, green]) {
      expect(x.prints().some((l) => /^lost connection to blue \(slot \d timed out after [\d.]+ s\)$/.test(l))).toBe(true);
      expect(x.prints().some((l) => /^blue is back \(slot \d\)$/.test(l))).toBe(true);
    }
    expect(blue.child.exitCode).toBeNull();
  });

  it('says the slotserver is not responding while it is stopped, and plays on peer to peer', { timeout: 60_000 }, async () => {
    const { server, b } = await threeBots();
    const before = b.map((x) => x.prints().length);
    const heard = b.map((x) => ({ ...x.received() }));
    const t0 = Date.now();
    server.child.kill('SIGSTOP');
    try {
      for (const [i, x] of b.entries()) {
        await x.until('"server not responding (4 s)"', () => x.prints().slice(before[i]).includes('server not responding (4 s)'), 15_000);
      }
    } finally {
      server.child.kill('SIGCONT');
    }
    const stoppedMs = Date.now() - t0;
    for (const x of b) await x.until('"server responding again"', () => x.prints().some((l) => l.startsWith('server responding again')), 10_000);
    for (const [i, x] of b.entries()) {
      const seconds = x.prints().slice(before[i]).flatMap((l) => /^server not responding \((\d+) s\)$/.exec(l)?.[1] ?? []).map(Number);
      const gained = Object.entries(x.received()).map(([slot, n]) => n - (heard[i]?.[slot] ?? 0));
      console.log(`${x.name}: slotserver stopped ${(stoppedMs / 1000).toFixed(1)} s; "server not responding" for ${seconds.join(', ')} s; states from the others meanwhile: ${gained.join(', ')}; ${x.prints().find((l) => l.startsWith('server responding again'))}`);
      expect(seconds.slice(0, 3)).toEqual([2, 3, 4]);
      // Peer to peer the game went on: every other bot's states kept arriving (idle keep-alives alone are 2 a second).
      expect(gained.length).toBe(2);
      for (const n of gained) expect(n).toBeGreaterThan(8);
      expect(names(x)).toEqual(['blue', 'green', 'red']);
    }
  });
});
