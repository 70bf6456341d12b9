/**
 * A forger on a joined player's own address and port (wrong tokens, no token,
 * garbage, ~2,000 a second) cannot cut the player off: the gameserver peeks at
 * the token before it charges anything to the seat, drops the forgeries as
 * `forged-token` and keeps the player's traffic flowing both ways.
 * Real gameserver process (out/main/server.js), real UDP on loopback; the
 * forgeries leave through the victim's own socket, as a forger's would look.
 */
import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeForger, runForger } from '../support/hostileForger';
import { serverEntry, startServer, stopServers } from '../support/serverProcess';

afterEach(() => stopServers());

beforeAll(() => {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npx electron-vite build" first`);
});

describe('gameserver against a forger of a joined player\'s address and port', () => {
  it('the player keeps getting states and getting its own through; the forgeries are counted as forged-token', { timeout: 60_000 }, async () => {
    const game = await startServer(['gameserver', '--name', 'forged', '--port', '0', '--udp-port', '0', '--http-port', '0']);
    const r = await runForger(game, { rate: 2000, seconds: 3 });
    console.log(describeForger(r));
    const forged = r.forged.wrongToken + r.forged.noToken + r.forged.garbage;
    expect(forged).toBe(6000);
    // Every forgery is dropped before it costs the seat anything, under its own reason; nothing is rate-limited.
    expect(r.drops['forged-token']).toBe(forged);
    expect(r.drops['rate-limited'] ?? 0).toBe(0);
    expect(r.players).toBe(2);
    // Breakage bounds: 100% both ways measured; the old server, charging the forgeries to the seat's rate,
    // let through 50% of the victim's states (and counted 5,063 of its datagrams and forgeries as rate-limited).
    expect(r.victimGets.during).toBeGreaterThan(0.7 * r.victimGets.before);
    expect(r.otherGets.during).toBeGreaterThan(0.7 * r.otherGets.before);
  });
});
