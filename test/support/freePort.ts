import dgram from 'node:dgram';
import { CLIENT_PORT_FALLBACK_RANGE } from '../../src/shared/net/packetApi';

/** Ports a peer-to-peer game on loopback uses: its base port and the fallback range its discovery scans. */
export const P2P_PORT_SPAN = CLIENT_PORT_FALLBACK_RANGE + 1;

function bind(port: number): Promise<dgram.Socket | null> {
  return new Promise((resolve) => {
    const s = dgram.createSocket('udp4');
    s.once('error', () => {
      s.close();
      resolve(null);
    });
    s.bind(port, '127.0.0.1', () => resolve(s));
  });
}

/**
 * The first of `count` consecutive UDP ports on 127.0.0.1 that are free now
 * (each was bound and released), so a test's game neither collides with nor
 * broadcasts onto a port another run on the machine is using.
 */
export async function freeUdpPorts(count = 1): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await bind(0);
    if (!first) continue;
    const base = first.address().port;
    const held: dgram.Socket[] = [first];
    let ok = base + count - 1 <= 65535;
    for (let p = base + 1; ok && p < base + count; p++) {
      const s = await bind(p);
      if (s) held.push(s);
      else ok = false;
    }
    await Promise.all(held.map((s) => new Promise<void>((r) => s.close(() => r()))));
    if (ok) return base;
  }
  throw new Error(`no ${count} consecutive free UDP ports on 127.0.0.1`);
}
