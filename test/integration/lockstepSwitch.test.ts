/**
 * Live protocol switching through lockstep: three players (three hosts in
 * this process, loopback) go p2p → lockstep → gameserver while running. Each
 * step ends in one consistent game: the same slot table everywhere, and in
 * lockstep the same world (one hash for a frame all three showed). Nothing is
 * left open afterwards.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { waitFor as until } from '../support/waitFor';
import { createHost } from '../../src/node/host/createHost';
import type { HostService } from '../../src/node/host/hostService';
import { startGameserver } from '../../src/node/servers/gameserver';
import { hashWorld } from '../../src/shared/game/hash';
import type { HostEvent } from '../../src/shared/host/contract';
import type { NetDelivery } from '../../src/shared/net/gameLink';
import { tempDir } from '../support/testRun';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

const handles = () => {
  const info = process.getActiveResourcesInfo();
  return { udp: info.filter((r) => r === 'UDPWrap').length, tcp: info.filter((r) => r === 'TCPWrap' || r === 'TCPServerWrap').length };
};
type Table = Extract<NetDelivery, { kind: 'players' }>;

describe('live protocol switching through lockstep', () => {
  it('three players go p2p → lockstep → gameserver, one consistent game each time, no leaks', { timeout: 60_000 }, async () => {
    const before = handles();
    const log = pino({ level: 'silent' });
    const gs = await startGameserver({ name: 'GS', log, port: 0, udpPort: 0, host: '127.0.0.1', maxPlayers: 8, welcome: [] });
    const base = await freeUdpPorts(P2P_PORT_SPAN);
    const players: { host: HostService; events: HostEvent[]; lines: string[] }[] = [];
    for (const name of ['alpha', 'bravo', 'charlie']) {
      const host = await createHost({ shell: 'browser', appVersion: 'test', userDataDir: tempDir('lockswitch'), clientPort: base, broadcastAddress: '127.255.255.255', lanInterfaces: [], log, onQuit: () => undefined });
      const p = { host, events: [] as HostEvent[], lines: [] as string[] };
      host.onEvents((b) => {
        p.events.push(...b);
        for (const e of b) if (e.kind === 'console') p.lines.push(e.text);
      });
      await host.command(`name ${name}`);
      players.push(p);
    }
    const since = new Map<HostService, number>();
    const lastTable = (p: (typeof players)[0]): Table | undefined => {
      for (let i = p.events.length - 1; i >= (since.get(p.host) ?? 0); i--) {
        const e = p.events[i] as HostEvent;
        if (e.kind === 'net' && e.delivery.kind === 'players') return e.delivery as Table;
      }
      return undefined;
    };
    const consistent = () => {
      const tables = players.map((p) => lastTable(p));
      if (tables.some((t) => !t || t.players.length !== 3 || t.players.some((x) => !x.joined))) return false;
      return new Set(tables.map((t) => JSON.stringify((t as Table).players.map((x) => [x.slot, x.name])))).size === 1;
    };
    /** Each host's world hash by tick, sampled every few ms (a tick lasts 25 ms). */
    const samples = players.map(() => new Map<number, string>());
    const sampler = setInterval(() => {
      players.forEach((p, i) => {
        const w = p.host.game?.game.curr;
        if (w && w.ships.length === 3 && !samples[i]?.has(w.tick)) samples[i]?.set(w.tick, hashWorld(w));
      });
    }, 4);
    /** A tick all three showed with three ships: its hashes (one if the worlds agree). */
    const commonFrame = () => {
      const [a, b, c] = samples as [Map<number, string>, Map<number, string>, Map<number, string>];
      // Two seconds into the shared world: past the joins' state transfers and a hash check.
      const ticks = [...a.keys()].filter((t) => t >= 80 && b.has(t) && c.has(t));
      const t = ticks[ticks.length - 1];
      return t === undefined ? null : { tick: t, hashes: new Set([a.get(t), b.get(t), c.get(t)]) };
    };

    const phases: [string, string | undefined][] = [
      ['p2p', undefined],
      ['lockstep', undefined],
      ['gameserver', `127.0.0.1:${gs.ports.tcp}`],
    ];
    const times: string[] = [];
    try {
      for (const [protocol, target] of phases) {
        const t0 = performance.now();
        for (const p of players) since.set(p.host, p.events.length);
        for (const p of players) {
          await p.host.command(`protocol ${protocol}`);
          await p.host.command(target ? `connect ${target}` : 'connect');
          if (!target && p === players[0]) await until('the first node alone in its game', () => lastTable(p)?.localSlot === 0);
        }
        await until(`one ${protocol} game of three`, consistent);
        if (protocol === 'lockstep') {
          // The same world: every host shows three ships, and a frame all three showed has one hash.
          for (const s of samples) s.clear();
          const frame = await until('a frame past 80 all three hosts showed', commonFrame);
          console.log(`lockstep: frame ${frame.tick} shown by all three with hash(es) ${[...frame.hashes].join(', ')}`);
          expect(frame.hashes.size).toBe(1);
          for (const p of players) expect(p.lines.filter((l) => /desync/.test(l))).toEqual([]);
        }
        times.push(`${protocol} ${(performance.now() - t0).toFixed(0)} ms`);
        expect(players.every((p) => p.host.subsystems.describe().protocol === protocol)).toBe(true);
      }
    } finally {
      clearInterval(sampler);
    }
    console.log(`protocol switches (three players, command to one consistent game): ${times.join(', ')}`);
    // After lockstep the gameserver game is a Parsec one again: each host shows its own ship and the two others.
    await until('each host shows the three ships of the gameserver game', () => players.every((p) => p.host.game?.game.curr.ships.length === 3));

    for (const p of players) await p.host.dispose();
    await gs.close();
    await until('sockets released', () => {
      const after = handles();
      return after.udp === before.udp && after.tcp === before.tcp;
    });
  });
});
