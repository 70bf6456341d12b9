/**
 * Live protocol switching: three players move p2p → gameserver →
 * slotserver → p2p while running, ending in one consistent game each time,
 * and nothing is left open afterwards.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { waitFor as until } from '../support/waitFor';
import { createHost } from '../../src/node/host/createHost';
import type { HostService } from '../../src/node/host/hostService';
import { startGameserver } from '../../src/node/servers/gameserver';
import { startSlotserver } from '../../src/node/servers/slotserver';
import type { HostEvent } from '../../src/shared/host/contract';
import type { NetDelivery } from '../../src/shared/net/gameLink';
import { tempDir } from '../support/testRun';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

const handles = () => {
  const info = process.getActiveResourcesInfo();
  return { udp: info.filter((r) => r === 'UDPWrap').length, tcp: info.filter((r) => r === 'TCPWrap' || r === 'TCPServerWrap').length };
};


describe('live protocol switching', () => {
  it('three players go p2p → gameserver → slotserver → p2p, one consistent game each time, no leaks', { timeout: 60_000 }, async () => {
    const before = handles();
    const log = pino({ level: 'silent' });
    const gs = await startGameserver({ name: 'GS', log, port: 0, udpPort: 0, host: '127.0.0.1', maxPlayers: 8, welcome: [] });
    const ss = await startSlotserver({ name: 'SS', log, port: 0, host: '127.0.0.1', maxPlayers: 8, welcome: [] });
    const base = await freeUdpPorts(P2P_PORT_SPAN);
    const players: { host: HostService; events: HostEvent[] }[] = [];
    for (const name of ['alpha', 'bravo', 'charlie']) {
      const host = await createHost({
        shell: 'browser',
        appVersion: 'test',
        userDataDir: tempDir('switch'),
        clientPort: base, // the same base: ports base, base+1, base+2, so p2p discovery finds all three
        broadcastAddress: '127.255.255.255',
        lanInterfaces: [],
        log,
        onQuit: () => undefined,
      });
      const events: HostEvent[] = [];
      host.onEvents((b) => events.push(...b));
      await host.command(`name ${name}`);
      players.push({ host, events });
    }
    /** Tables delivered since the current phase began count; older ones are the previous protocol's. */
    const since = new Map<HostService, number>();
    const lastTable = (p: { host: HostService; events: HostEvent[] }) => {
      for (let i = p.events.length - 1; i >= (since.get(p.host) ?? 0); i--) {
        const e = p.events[i] as HostEvent;
        if (e.kind === 'net' && e.delivery.kind === 'players') return e.delivery as Extract<NetDelivery, { kind: 'players' }>;
      }
      return undefined;
    };
    const consistent = () => {
      const tables = players.map((p) => lastTable(p));
      if (tables.some((t) => !t || t.players.length !== 3 || t.players.some((x) => !x.joined))) return false;
      const shape = (t: Extract<NetDelivery, { kind: 'players' }>) => JSON.stringify(t.players.map((x) => [x.slot, x.name]));
      return new Set(tables.map((t) => shape(t as Extract<NetDelivery, { kind: 'players' }>))).size === 1;
    };

    const phases: [string, string | undefined][] = [
      ['p2p', undefined],
      ['gameserver', `127.0.0.1:${gs.ports.tcp}`],
      ['slotserver', `127.0.0.1:${ss.ports.tcp}`],
      ['p2p', undefined],
    ];
    const times: string[] = [];
    for (const [protocol, target] of phases) {
      const t0 = performance.now();
      for (const p of players) since.set(p.host, p.events.length);
      for (const p of players) {
        await p.host.command(`protocol ${protocol}`);
        await p.host.command(target ? `connect ${target}` : 'connect');
        // p2p: let the first one start the game so the others join it rather than race.
        if (!target && p === players[0]) await until('first p2p node alone in its game', () => lastTable(p)?.localSlot === 0);
      }
      await until(`one ${protocol} game of three`, consistent);
      const ms = performance.now() - t0;
      times.push(`${protocol} ${ms.toFixed(0)} ms`);
      expect(players.every((p) => p.host.subsystems.describe().protocol === protocol)).toBe(true);
    }
    console.log(`protocol switches (three players, command to one consistent game): ${times.join(', ')}`);

    for (const p of players) await p.host.dispose();
    await gs.close();
    await ss.close();
    await until('sockets released', () => {
      const after = handles();
      return after.udp === before.udp && after.tcp === before.tcp;
    });
  });
});
