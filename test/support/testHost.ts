import pino from 'pino';
import { createHost } from '../../src/node/host/createHost';
import type { HostService } from '../../src/node/host/hostService';
import type { HostEvent } from '../../src/shared/host/contract';
import type { NetDelivery } from '../../src/shared/net/gameLink';
import { tempDir } from './testRun';
import { freeUdpPorts, P2P_PORT_SPAN } from './freePort';
import { waitFor } from './waitFor';

/** A complete host in this process, with what it printed and delivered recorded. */
export interface TestHost {
  host: HostService;
  events: HostEvent[];
  /** Every delivery the network made to the host's game (states and events included), in order. */
  delivered: NetDelivery[];
  run(line: string): Promise<void>;
  /** Console output so far, one line per console event. */
  text(): string;
  deliveries<K extends NetDelivery['kind']>(kind: K): Extract<NetDelivery, { kind: K }>[];
  /** States received from `slot` so far. */
  states(slot: number): number;
}

/**
 * Starts a full host (settings in a temp folder, real UDP on loopback, LAN
 * discovery on 127.255.255.255, no multicast on real interfaces) named
 * `name`, optionally with `protocol` bound. `clientPort` defaults to a random
 * high port; give several hosts the same one for p2p discovery.
 */
export async function startTestHost(name: string, options: { protocol?: string; clientPort?: number } = {}): Promise<TestHost> {
  const host = await createHost({
    shell: 'browser',
    appVersion: 'test',
    userDataDir: tempDir('test-host'),
    clientPort: options.clientPort ?? await freeUdpPorts(P2P_PORT_SPAN),
    broadcastAddress: '127.255.255.255',
    lanInterfaces: [],
    log: pino({ level: 'silent' }),
    onQuit: () => undefined,
  });
  const events: HostEvent[] = [];
  host.onEvents((b) => events.push(...b));
  const delivered: NetDelivery[] = [];
  host.game?.watch((d) => delivered.push(d));
  await host.command(`name ${name}`);
  if (options.protocol) await host.command(`protocol ${options.protocol}`);
  const deliveries = <K extends NetDelivery['kind']>(kind: K) => delivered.filter((d): d is Extract<NetDelivery, { kind: K }> => d.kind === kind);
  return {
    host,
    events,
    delivered,
    run: (line) => host.command(line),
    text: () => events.flatMap((e) => (e.kind === 'console' ? [e.text] : [])).join('\n'),
    deliveries,
    states: (slot) => deliveries('state').filter((d) => d.slot === slot).length,
  };
}

/** Waits for `check` to hold (test/support/waitFor.ts). */
export { waitFor as until } from './waitFor';

/**
 * Two test hosts, alpha and bravo, in one game of `protocol` (p2p or
 * lockstep) on loopback: alpha connects first and starts it, bravo joins as
 * slot 1 (`clientPort`: their port, for a third host to find the game). The caller disposes them.
 */
export async function twoInOneLanGame(protocol = 'p2p', clientPort?: number): Promise<[TestHost, TestHost]> {
  const port = clientPort ?? (await freeUdpPorts(P2P_PORT_SPAN));
  const a = await startTestHost('alpha', { protocol, clientPort: port });
  const b = await startTestHost('bravo', { protocol, clientPort: port });
  await a.run('connect');
  await waitFor('alpha alone in its game', () => /connected to the peer-to-peer game as slot 0/.test(a.text()));
  await b.run('connect');
  await waitFor('bravo in slot 1', () => /connected to the peer-to-peer game as slot 1/.test(b.text()));
  return [a, b];
}
