/**
 * Ping by unicast discovery against real server processes on loopback: a
 * slot-, a game- and a netgame server register with a masterserver process,
 * which lists each with its discovery UDP port (masterserver 1.1); a client
 * pings every listed server there, and each answers as its kind. The
 * responders' rate limit holds for unicast requests too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pingServers } from '../../src/node/net/serverPing';
import { queryMaster } from '../../src/node/net/masterQuery';
import { startServer, stopServers } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';

afterEach(() => stopServers());

describe('ping by unicast discovery (loopback, real server processes)', () => {
  it('pings a slot-, a game- and a netgame server listed by a masterserver at the UDP ports the list gives', { timeout: 30_000 }, async () => {
    const master = await startServer(['masterserver', '--name', 'ping-master', '--port', '0']);
    const registered = (kind: string, name: string) => ['--name', name, '--port', '0', '--udp-port', '0', '--master', `127.0.0.1:${master.tcp}`, '--url', `http://${kind}.example/`];
    const [slots, game, netgame] = await Promise.all([
      startServer(['slotserver', ...registered('slots', 'Ping_Slots')]),
      startServer(['gameserver', ...registered('game', 'Ping_Game')]),
      startServer(['netgame', ...registered('netgame', 'Ping_Net')]),
    ]);
    const listed = await waitFor('all three listed', async () => {
      const l = await queryMaster('127.0.0.1', master.tcp);
      // The gameserver's solar system follows its join.
      return l.length === 3 && l.some((s) => s.systems.length > 0) ? l : null;
    });
    const byName = Object.fromEntries(listed.map((s) => [s.name, s]));
    expect(byName).toEqual({
      Ping_Slots: { name: 'Ping_Slots', type: 'slotserver', host: '127.0.0.1', port: slots.tcp, udp: slots.udp, players: 0, maxPlayers: expect.any(Number), systems: [] },
      Ping_Game: { name: 'Ping_Game', type: 'gameserver', host: '127.0.0.1', port: game.tcp, udp: game.udp, players: 0, maxPlayers: expect.any(Number), systems: ['Sol'] },
      Ping_Net: { name: 'Ping_Net', type: 'netgame', host: '127.0.0.1', port: netgame.tcp, udp: netgame.udp, players: 0, maxPlayers: expect.any(Number), systems: [] },
    });

    const report = await pingServers(listed.map((s) => ({ address: s.host, port: s.udp as number })));
    console.log(`unicast pings on loopback: ${report.results.map((r) => `${r.announcement?.name} (${r.announcement?.kind}) ${r.pingMs} ms`).join(', ')}; requests ${report.requests}, ignored ${JSON.stringify(report.ignored)}`);
    expect(report.results.map((r) => [r.announcement?.name, r.announcement?.kind, r.announcement?.port, r.pingMs !== null && r.pingMs >= 0])).toEqual(
      listed.map((s) => [s.name, s.type, s.port, true]),
    );
    expect(report.ignored).toEqual({});
  });

  it("a server's discovery rate limit holds for unicast requests: a burst of 15 from one address gets at most the burst of 10 (plus what refills meanwhile)", { timeout: 20_000 }, async () => {
    const slots = await startServer(['slotserver', '--name', 'Busy', '--port', '0', '--udp-port', '0']);
    const target = { address: '127.0.0.1', port: slots.udp as number };
    const report = await pingServers(Array.from({ length: 15 }, () => target), { attempts: 1, maxInFlight: 15, timeoutMs: 500 });
    const answered = report.results.filter((r) => r.pingMs !== null).length;
    console.log(`15 unicast requests at once to one slotserver: ${answered} answered`);
    expect(answered).toBeGreaterThanOrEqual(10);
    expect(answered).toBeLessThan(15);
  });
});
