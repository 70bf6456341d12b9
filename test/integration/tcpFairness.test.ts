/**
 * Per-source fairness on TCP, against the built servers as processes: one
 * address's flood of idle connections does not lock out another address
 * (127.0.0.x loopback addresses stand for distinct hosts), the places kept
 * for new sources hold when many addresses fill the table, and a
 * byte-at-a-time trickle is closed by the line deadline.
 */
import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { flood, type Flood } from '../support/connectionFlood';
import { LineClient } from '../support/lineClient';
import { serverEntry, startServer, stopServers } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';

const floods: Flood[] = [];
const clients: LineClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.socket.destroy();
  await Promise.all(floods.splice(0).map((f) => f.end()));
  stopServers();
});

beforeAll(() => {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npx electron-vite build" first`);
});

/** Connection-rate limiting off, so the connection caps are what holds. */
const NO_RATE = ['--connects-per-minute', '1000000'];

async function honest(port: number, from: string): Promise<LineClient> {
  const c = await LineClient.open(port, '127.0.0.1', from);
  clients.push(c);
  return c;
}

describe('TCP connection fairness', () => {
  it.each([
    ['masterserver', [] as string[]],
    ['slotserver', ['--udp-port', '0']],
    ['gameserver', ['--udp-port', '0']],
  ])('1,100 idle connections from one address do not lock a second address out of the %s', async (kind, extra) => {
    const s = await startServer([kind, '--port', '0', ...extra, ...NO_RATE]);
    const attack = await flood(s.tcp, '127.0.0.2', 1100);
    floods.push(attack);
    // The server closes what is over the per-address cap at once; the rest stays open and idle.
    await waitFor('the connections over the cap closed', () => attack.closed() >= 1100 - 64, 20_000);
    const held = attack.open();
    const c = await honest(s.tcp, '127.0.0.3');
    if (kind === 'masterserver') {
      c.send('list servers');
      expect(await c.next()).toBe('end of list');
    } else {
      c.send('version: 1.0 join me: Honest os: linux');
      expect(await c.next()).toMatch(/^join from .* accepted/);
    }
    console.log(`${kind}: 1100 idle connections from 127.0.0.2: ${held} held, ${attack.closed()} closed at once; 127.0.0.3 served`);
    expect(held).toBeLessThanOrEqual(64);
    expect(held).toBeGreaterThan(0);
  });

  it('many busy addresses cannot take the places kept for a new address', async () => {
    const s = await startServer(['masterserver', '--port', '0', ...NO_RATE, '--max-connections', '200', '--max-connections-per-address', '40']);
    for (let i = 1; i <= 8; i++) floods.push(await flood(s.tcp, `127.0.1.${i}`, 40));
    // 150 places (200 less the 50 kept) for busy addresses; later addresses still get fewer than 4 each (SMALL_SOURCE).
    const expected = 150 + 4 * 4;
    await waitFor('the connections over the caps closed', () => floods.reduce((n, f) => n + f.open(), 0) <= expected, 10_000);
    const held = floods.reduce((n, f) => n + f.open(), 0);
    const c = await honest(s.tcp, '127.0.0.9');
    c.send('list servers');
    expect(await c.next()).toBe('end of list');
    console.log(`masterserver (cap 200, 40 per address): 8 addresses × 40 idle connections: ${held} held; a ninth address served`);
    expect(held).toBe(expected);
  });

  it('a byte-at-a-time trickle (4 bytes a second) is closed by the line deadline (masterserver, and a joined slotserver player)', async () => {
    // The line deadline (10 s by default) set to 0.6 s: longer than the 250 ms between bytes, so it is the deadline that cuts, not a gap.
    const [master, slots] = await Promise.all([
      startServer(['masterserver', '--port', '0', '--line-timeout-seconds', '0.6']),
      startServer(['slotserver', '--port', '0', '--udp-port', '0', '--line-timeout-seconds', '0.6']),
    ]);
    const player = await honest(slots.tcp, '127.0.0.3');
    player.send('version: 1.0 join me: Trickler os: linux');
    expect(await player.next()).toMatch(/^join from .* accepted/);
    const trickle = async (c: LineClient) => {
      const text = 'list servers and then some more bytes that never end';
      const started = Date.now();
      let sent = 0;
      const timer = setInterval(() => {
        if (!c.ended && sent < text.length) c.socket.write(text[sent++] ?? 'x');
      }, 250);
      await c.closed;
      clearInterval(timer);
      return { ms: Date.now() - started, sent };
    };
    // The two trickles at once: each is timed from its own start.
    const [m, p] = await Promise.all([trickle(await honest(master.tcp, '127.0.0.2')), trickle(player)]);
    console.log(`trickle closed after ${m.ms} ms / ${m.sent} bytes (masterserver), ${p.ms} ms / ${p.sent} bytes (joined slotserver player)`);
    // Breakage guards: the deadline is 0.6 s; the idle timeouts (91 s, none for joined players) would never fire.
    expect(m.ms).toBeLessThan(10_000);
    expect(p.ms).toBeLessThan(10_000);
    expect(m.sent).toBeLessThan(10);
  });
});
