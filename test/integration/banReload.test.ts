/**
 * Bans without a restart: editing the ban file (replaced by a rename, as
 * editors save, or rewritten in place) bans a playing address within a
 * moment, and SIGHUP makes a server process read it again at once. The
 * banned player is told why and removed; the others learn it left.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startSlotserver, type Slotserver } from '../../src/node/servers/slot/slotserver';
import { LineClient } from '../support/lineClient';
import { startServer, stopServers } from '../support/serverProcess';
import { tempDir } from '../support/testRun';
import { waitFor } from '../support/waitFor';

const clients: LineClient[] = [];
const servers: Slotserver[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.socket.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close('test over')));
  stopServers();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
/** A ban file in a fresh folder the test's end removes. */
function banFileIn(label: string): string {
  const dir = tempDir(label);
  dirs.push(dir);
  return join(dir, 'bans.txt');
}

/** Joins from `from` on UDP port `port` and reads the accept and the four message lines. */
async function joined(tcpPort: number, from: string, name: string, port: number): Promise<LineClient> {
  const c = await LineClient.open(tcpPort, '127.0.0.1', from);
  clients.push(c);
  c.send(`version: 1.0 join me: ${name} os: test port: ${port}`);
  expect(await c.next()).toMatch(new RegExp(`^join from ${name} accepted`));
  await c.take(4);
  return c;
}

describe('ban file changes apply without a restart', () => {
  it('editing the ban file removes a playing address within a moment, and unbanning lets it back', async () => {
    const banFile = banFileIn('bans');
    writeFileSync(banFile, '# nobody yet\n');
    const s = await startSlotserver({ name: 'bans', host: '127.0.0.1', port: 0, maxPlayers: 8, welcome: [], banFile, banPollMs: 50, log: pino({ level: 'silent' }) });
    servers.push(s);
    const tcp = s.ports.tcp ?? 0;
    const troll = await joined(tcp, '127.0.0.5', 'troll', 7000);
    const ace = await joined(tcp, '127.0.0.1', 'ace', 7001);
    expect(await ace.next()).toBe('add ip: 127.0.0.5:7000 name: troll in 0');
    expect(await troll.next()).toBe('add ip: 127.0.0.1:7001 name: ace in 1');
    // Saved the way editors do: a new file renamed over the old one.
    const started = performance.now();
    writeFileSync(`${banFile}.new`, '127.0.0.5 # the troll\n');
    renameSync(`${banFile}.new`, banFile);
    expect(await troll.next()).toBe('removed: banned from this server');
    const ms = Math.round(performance.now() - started);
    expect(await troll.next()).toBe('removing you');
    await troll.closed;
    expect(await ace.next()).toBe('remove ip: 127.0.0.5:7000');
    console.log(`ban file replaced by a rename → the playing address removed ${ms} ms later (ban file polled every 50 ms)`);
    expect(s.players().map((p) => p.name)).toEqual(['ace']);
    const again = await LineClient.open(tcp, '127.0.0.1', '127.0.0.5');
    clients.push(again);
    again.send('version: 1.0 join me: troll os: test port: 7000');
    expect(await again.next()).toBe("you're banned from this server");
    // Rewritten in place: nobody is banned any more, and the troll gets back in once the file has been read.
    writeFileSync(banFile, '# forgiven\n');
    const reply = await waitFor('the unban to be read', async () => {
      const c = await LineClient.open(tcp, '127.0.0.1', '127.0.0.5');
      clients.push(c);
      c.send('version: 1.0 join me: troll os: test port: 7000');
      const line = await c.next();
      return line.startsWith('join from') && line;
    });
    expect(reply).toMatch(/^join from troll accepted, slot: 0/);
  });
});

describe('SIGHUP re-reads the ban file', () => {
  it('a gameserver process removes a playing address banned by the file at SIGHUP, long before its next poll', async () => {
    const banFile = banFileIn('bans');
    writeFileSync(banFile, '');
    // Polled once an hour: only SIGHUP can make it read the file within the test.
    const server = await startServer(['gameserver', '--name', 'hup', '--port', '0', '--udp-port', '0', '--ban-file', banFile, '--ban-poll-seconds', '3600']);
    const troll = await joined(server.tcp, '127.0.0.6', 'troll', 7000);
    writeFileSync(banFile, '127.0.0.6\n');
    const started = performance.now();
    server.child.kill('SIGHUP');
    expect(await troll.next()).toBe('removed: banned from this server');
    expect(await troll.next()).toBe('removing you');
    console.log(`SIGHUP → the banned player removed ${Math.round(performance.now() - started)} ms later; the process is still running: ${server.child.exitCode === null}`);
    expect(server.child.exitCode).toBe(null);
    const again = await LineClient.open(server.tcp, '127.0.0.1', '127.0.0.6');
    clients.push(again);
    again.send('version: 1.0 join me: troll os: test');
    expect(await again.next()).toBe("you're banned from this server");
  });
});
