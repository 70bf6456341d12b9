/**
 * Per-host seat limits count IPv6 sources per /64: a gameserver process
 * inside a network namespace (test/support/netns.ts), players joining from
 * addresses of that namespace's loopback, three in one /64 and one in
 * another. Needs root, like the other virtual-LAN tests.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupStaleLans, createLan, lanAvailable, type Lan, type LanHost } from '../support/netns';
import { serverEntry } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';

const SERVER = '2001:db8:9::1';
const SAME_64 = ['2001:db8:1::1', '2001:db8:1::2', '2001:db8:1:0:ffff::3'];
const OTHER_64 = '2001:db8:2::1';

/** Joins from each address in turn (keeping every connection open) and prints the first reply of each as JSON. */
const CLIENT = `
const net = require('node:net');
const [port, server, ...from] = process.argv.slice(1);
(async () => {
  const replies = [];
  for (const [i, localAddress] of from.entries()) {
    replies.push(await new Promise((resolve) => {
      const s = net.connect({ host: server, port: Number(port), localAddress }, () => s.write('version: 1.0 join me: p' + i + ' os: test\\n'));
      let buf = '';
      s.setEncoding('utf8');
      s.on('data', (d) => { buf += d; if (buf.includes('\\n')) resolve(buf.slice(0, buf.indexOf('\\n')).replace(/, .*/, '')); });
      s.on('error', (e) => resolve('error: ' + e.message));
    }));
  }
  process.stdout.write(JSON.stringify(replies) + '\\n');
  process.exit(0);
})();
`;

describe('seat limits per IPv6 /64', () => {
  let lan: Lan | undefined;
  beforeAll(async () => {
    const reason = await lanAvailable();
    if (reason !== null) throw new Error(`virtual LAN unavailable, cannot test IPv6 sources: ${reason}`);
    await cleanupStaleLans();
    lan = await createLan({ hosts: 1 });
    const ns = (lan.hosts[0] as LanHost).name;
    for (const a of [SERVER, ...SAME_64, OTHER_64]) execFileSync('ip', ['-n', ns, '-6', 'addr', 'add', `${a}/128`, 'dev', 'lo', 'nodad']);
  });
  afterAll(async () => {
    await lan?.destroy();
  });

  it('three joins from one /64 get two seats (--max-per-address 2); a join from another /64 still gets one', async () => {
    const host = (lan as Lan).hosts[0] as LanHost;
    const server = (lan as Lan).spawn(host, process.execPath, [serverEntry, 'gameserver', '--name', 'v6', '--host', '::', '--port', '0', '--udp-port', '0', '--max-per-address', '2', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    let out = '';
    server.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    server.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    let replies: string[];
    try {
      const port = Number((await waitFor('the gameserver to listen', () => /listening on tcp (\d+)/.exec(out)))[1]);
      const { stdout } = await (lan as Lan).exec(host, process.execPath, ['-e', CLIENT, String(port), SERVER, ...SAME_64, OTHER_64]);
      replies = JSON.parse(stdout) as string[];
    } finally {
      server.kill('SIGTERM');
      await exited;
    }
    console.log(`gameserver --max-per-address 2, joins from ${[...SAME_64, OTHER_64].join(', ')}: ${JSON.stringify(replies)}`);
    expect(replies).toEqual(['join from p0 accepted', 'join from p1 accepted', 'server full', 'join from p3 accepted']);
  });
});
