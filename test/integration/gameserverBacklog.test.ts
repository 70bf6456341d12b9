/**
 * A gameserver that fell behind does not spend itself on stale input
 * (src/node/servers/game/receiveBacklog.ts), with the built server process
 * and real sockets: eight players send 20 states a second; the server is
 * stopped (SIGSTOP) until each has sent 40 more, then continued, so it finds
 * two seconds of datagrams in its socket buffer. It relays at most one state
 * per player of those that waited longer than SHED_AGE_MS (the floor's), then
 * fresh ones; its status JSON says how many states it shed and how long
 * they had waited, and that it cut its receive buffer; nobody is removed. The server flushes after every burst
 * it reads (`--gather-ms 0`), so without shedding each burst of the backlog
 * would go out as old states.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { GameClient } from '../support/gameClient';
import { serverEntry, startServer, stopServers } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';
import { SHED_AGE_MS } from '../../src/node/servers/game/receiveBacklog';
import type { GameserverStats } from '../../src/node/servers/game/gameserverOptions';

const clients: GameClient[] = [];
let timer: NodeJS.Timeout | undefined;
afterEach(() => {
  clearInterval(timer);
  for (const c of clients.splice(0)) c.close();
  stopServers();
});

const PLAYERS = 8;
/** States each player sends while the server is stopped. */
const STALLED = 40;

type Status = Omit<GameserverStats, 'clients'> & { players: { slot: number }[] };

describe('a gameserver that fell behind', () => {
  it('relays at most one stale state per player from two seconds of backlog, then fresh ones, says so in its status, and removes nobody', { timeout: 60_000 }, async () => {
    if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npm run build" first (npm test does)`);
    const server = await startServer(['gameserver', '--name', 'Backlog', '--port', '0', '--udp-port', '0', '--http-port', '0', '--gather-ms', '0']);
    const status = async () => (await (await fetch(`http://127.0.0.1:${server.http}/status.json`)).json()) as Status;
    for (let i = 0; i < PLAYERS; i++) {
      const c = await GameClient.join({ tcpPort: server.tcp, name: `p${i}`, localAddress: `127.0.0.${2 + (i >> 2)}` });
      clients.push(c);
      c.hello();
    }
    const [observer] = clients as [GameClient];
    const others = clients.slice(1);
    // Every player's states by message id: when each was sent, by the test's clock.
    const sentAt = new Map<number, Map<number, number>>(clients.map((c) => [c.slot, new Map()]));
    let stopped = false;
    const duringStop = new Map<number, number[]>(clients.map((c) => [c.slot, []]));
    timer = setInterval(() => {
      for (const [i, c] of clients.entries()) {
        const id = c.sendState({ x: 40 * i, y: 0, z: 0 });
        sentAt.get(c.slot)?.set(id, performance.now());
        if (stopped) duringStop.get(c.slot)?.push(id);
      }
    }, 50);
    const newestFrom = (slot: number) => Math.max(0, ...observer.relayed().filter((r) => r.slot === slot && r.packet.header.state).map((r) => r.packet.header.messageId));
    await waitFor('the observer getting every other player', () => others.every((c) => newestFrom(c.slot) > 5));

    const stopAt = performance.now();
    server.child.kill('SIGSTOP');
    stopped = true;
    try {
      await waitFor(`${STALLED} states from each player while the server is stopped`, () => [...duringStop.values()].every((ids) => ids.length >= STALLED), 20_000);
    } finally {
      stopped = false;
      server.child.kill('SIGCONT');
    }
    const resumeAt = performance.now();
    const lastStalled = new Map(clients.map((c) => [c.slot, Math.max(...(duringStop.get(c.slot) ?? []))]));
    await waitFor('a fresh state from every other player', () => others.every((c) => newestFrom(c.slot) > (lastStalled.get(c.slot) ?? Infinity)), 20_000);
    clearInterval(timer);

    // Stale: sent more than SHED_AGE_MS and a margin before the server went on, so it waited at least that long.
    const staleBefore = resumeAt - SHED_AGE_MS - 100;
    const relayedStale = others.map((c) => {
      const ids = new Set(observer.relayed().filter((r) => r.slot === c.slot && r.packet.header.state).map((r) => r.packet.header.messageId));
      const stale = (duringStop.get(c.slot) ?? []).filter((id) => (sentAt.get(c.slot)?.get(id) ?? Infinity) < staleBefore);
      return { slot: c.slot, stale: stale.length, relayed: stale.filter((id) => ids.has(id)).length };
    });
    const s = await status();
    console.log(
      `backlog: server stopped ${Math.round(resumeAt - stopAt)} ms; stale states relayed to the observer per player ${relayedStale.map((r) => `${r.relayed}/${r.stale}`).join(', ')}; ` +
        `status: receiveWaitMs ${JSON.stringify(s.load.receiveWaitMs)}, receiveBufferBytes ${s.load.receiveBufferBytes}, statesShed ${s.load.statesShed}, longestShedMs ${s.load.longestShedMs}, drops ${JSON.stringify(s.drops)}, overloaded ${s.load.overloaded}`,
    );
    for (const r of relayedStale) {
      expect(r.stale).toBeGreaterThanOrEqual(STALLED - 10);
      expect(r.relayed).toBeLessThanOrEqual(1);
    }
    // The first states sent after the stop waited about the whole stop (the server's own probes did not: none went while it was stopped).
    expect(s.load.longestShedMs).toBeGreaterThanOrEqual((resumeAt - stopAt) * 0.8);
    expect(s.load.longestShedMs).toBeLessThanOrEqual(resumeAt - stopAt + 200);
    // Each player's stale states but the floor's one were shed: eight players × (at least 30 − 1).
    expect(s.load.statesShed).toBeGreaterThanOrEqual(PLAYERS * (STALLED - 10 - 1));
    expect(s.drops.backlog).toBe(s.load.statesShed);
    // Two seconds behind: it cut its receive buffer to keep its queue short (and will grow it back once calm).
    expect(s.load.receiveBufferCut).toBe(true);
    expect(s.players.map((p) => p.slot).sort((a, b) => a - b)).toEqual(clients.map((c) => c.slot).sort((a, b) => a - b));
    expect(s.kicked).toBe(0);
  });
});
