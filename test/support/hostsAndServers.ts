/**
 * Full test hosts of one protocol and the servers they play through, for the
 * tests of one file: `node` starts a host (startTestHost) and `servers` takes
 * each server a test starts; after each test every host is disposed and
 * every server still in `servers` is closed.
 */
import { afterEach } from 'vitest';
import type { HostService } from '../../src/node/host/hostService';
import type { RunningServer } from '../../src/node/servers/common/types';
import { startTestHost, type TestHost } from './testHost';

export interface HostsAndServers {
  /** Starts a host named `name` on the file's protocol. */
  node(name: string): Promise<TestHost>;
  /** The servers to close after the test: push each one a test starts. */
  servers: RunningServer[];
}

export function hostsAndServersPerTest(protocol: string): HostsAndServers {
  const hosts: HostService[] = [];
  const servers: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.dispose()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return {
    node: async (name) => {
      const h = await startTestHost(name, { protocol });
      hosts.push(h.host);
      return h;
    },
    servers,
  };
}
