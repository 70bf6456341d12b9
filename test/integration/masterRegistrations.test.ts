/**
 * What a flood of fake registrations can do to the masterserver list: each
 * host (address, or IPv6 /64) holds at most `maxServersPerAddress` entries,
 * (IPv6: per /64, see test/unit/servers/addressKey.test.ts), and an entry goes
 * the moment its connection closes, so fakes from a few
 * addresses leave room for real servers and vanish with their sockets.
 */
import { connect, type Socket } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/waitFor';
import { DEFAULT_MAX_SERVERS_PER_ADDRESS, startMasterserver, type Masterserver } from '../../src/node/servers/master/masterserver';

const joinAs = (name: string) => `version: 1.0 join me: ${name} os: linux-x64 maxplayers: 16 url: http://example.org/ port: 6582 type: gameserver`;

const sockets: Socket[] = [];
const masters: Masterserver[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(masters.splice(0).map((m) => m.close()));
});

/** Connects from `localAddress`, sends one line and resolves with the first reply line. */
async function register(port: number, localAddress: string, name: string): Promise<{ socket: Socket; reply: string }> {
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  sockets.push(socket);
  socket.setEncoding('utf8');
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const reply = new Promise<string>((resolve) => {
    let buf = '';
    socket.on('data', (d: string) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    socket.once('close', () => resolve('(closed)'));
  });
  socket.write(`${joinAs(name)}\n`);
  return { socket, reply: await reply };
}

describe('masterserver registrations per address', () => {
  it('256 fake registrations from one address leave room for a real server', async () => {
    const m = await startMasterserver({ name: 'm', host: '127.0.0.1', port: 0, log: pino({ level: 'silent' }) });
    masters.push(m);
    const port = m.ports.tcp as number;
    const replies = new Map<string, number>();
    const started = performance.now();
    for (let i = 0; i < 256; i++) {
      const { reply } = await register(port, '127.0.0.2', `fake${i}`);
      replies.set(reply, (replies.get(reply) ?? 0) + 1);
    }
    const ms = Math.round(performance.now() - started);
    const real = await register(port, '127.0.0.1', 'real');
    console.log(`256 fake registrations from 127.0.0.2 in ${ms} ms: ${JSON.stringify(Object.fromEntries(replies))}; listed ${m.servers().length - 1} fakes; real server: ${real.reply}`);
    expect(replies.get('join accepted')).toBe(DEFAULT_MAX_SERVERS_PER_ADDRESS);
    expect(real.reply).toBe('join accepted');
    expect(m.servers().filter((e) => e.address === '127.0.0.2')).toHaveLength(DEFAULT_MAX_SERVERS_PER_ADDRESS);
    expect(m.servers().map((e) => e.name)).toContain('real');
  });

  it("drops a registration's entry as soon as its connection closes", async () => {
    const m = await startMasterserver({ name: 'm', host: '127.0.0.1', port: 0, log: pino({ level: 'silent' }) });
    masters.push(m);
    const port = m.ports.tcp as number;
    const { socket, reply } = await register(port, '127.0.0.1', 'brief');
    expect(reply).toBe('join accepted');
    expect(m.servers().map((e) => e.name)).toEqual(['brief']);
    socket.destroy();
    // No expiry to wait for: the close event itself takes the entry (the default expiry is 90 s, this waits 10 s at most).
    await waitFor('the entry to go with its connection', () => m.servers().length === 0);
  });

  it("frees an address's share as soon as one of its registrations leaves", async () => {
    const m = await startMasterserver({ name: 'm', host: '127.0.0.1', port: 0, maxServersPerAddress: 2, log: pino({ level: 'silent' }) });
    masters.push(m);
    const port = m.ports.tcp as number;
    const a = await register(port, '127.0.0.3', 'a');
    const b = await register(port, '127.0.0.3', 'b');
    const c = await register(port, '127.0.0.3', 'c');
    expect([a.reply, b.reply, c.reply]).toEqual(['join accepted', 'join accepted', 'masterserver full']);
    a.socket.destroy();
    await waitFor('the closed registration to leave the list', () => m.servers().length === 1);
    expect((await register(port, '127.0.0.3', 'd')).reply).toBe('join accepted');
  });
});
