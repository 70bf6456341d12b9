import { describe, it, expect } from 'vitest';
import type { ReceivedPacket } from '../../src/shared/net/packetApi';
import { createSubsystems } from '../../src/node/subsystems';
import { UdpPacketApi } from '../../src/node/packet/udp';
import { udpHandles, timers } from '../support/resources';
import { waitFor } from '../support/waitFor';


describe('packet API rebinding through the subsystem registry', () => {
  it('leaves no socket, handle or timer behind after 100 udp <-> udp6 rebinds, and still carries datagrams', async () => {
    const lines: string[] = [];
    const registry = createSubsystems({ clientPort: 0, lanInterfaces: [], broadcastAddress: '127.255.255.255', log: (l) => lines.push(l) });
    const packetKind = registry.packetApi;
    const startHandles = udpHandles();
    const startTimers = timers();

    expect((await packetKind.bind('udp')).ok).toBe(true);
    expect((await registry.protocol.bind('offline')).ok).toBe(true);
    expect(udpHandles()).toBe(startHandles + 1);

    for (let i = 0; i < 100; i++) {
      const name = i % 2 === 0 ? 'udp6' : 'udp';
      const result = await packetKind.bind(name);
      expect(result, `rebind #${i} to ${name}`).toMatchObject({ ok: true, to: name });
      // Exactly one socket is open at any time: the old one is gone before the new one counts.
      expect(udpHandles()).toBe(startHandles + 1);
    }
    expect(registry.describe()).toEqual({ packetapi: 'udp', protocol: 'offline', sound: null });

    // A datagram still crosses through the table after all that churn.
    const peer = new UdpPacketApi();
    await peer.init({ port: 0 });
    try {
      const got: ReceivedPacket[] = [];
      packetKind.table.onPacket((p) => got.push(p));
      peer.send(peer.resolve('localhost', packetKind.table.localPort()), new Uint8Array([1, 2, 3]));
      await waitFor('the datagram', () => got.length > 0, 2000, 5);
      expect(got.map((p) => [...p.data])).toEqual([[1, 2, 3]]);
    } finally {
      await peer.kill();
    }

    await registry.killAll();
    expect(registry.describe()).toEqual({ packetapi: null, protocol: null, sound: null });
    expect(udpHandles()).toBe(startHandles);
    expect(timers()).toBeLessThanOrEqual(startTimers);
    expect(lines).toEqual([]);
  });
});
