/**
 * Status pages show where each player plays from as address:port, the port
 * always written: a game on the default client port 6526 (the browser shell's
 * and the game's default) used to show up as a bare "127.0.0.1".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatJoin } from '../../src/shared/servers/joinProtocol';
import { LineClient } from '../support/lineClient';
import { startServer, stopServers } from '../support/serverProcess';
import { startTestHost, until, type TestHost } from '../support/testHost';
import { waitFor } from '../support/waitFor';

interface StatusPlayer {
  name: string;
  playsFrom: string;
  via: 'udp' | 'tcp';
}

const hosts: TestHost[] = [];
const lines: LineClient[] = [];
afterEach(async () => {
  for (const l of lines.splice(0)) l.socket.destroy();
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
  stopServers();
});

async function status(http: number | undefined): Promise<{ players: StatusPlayer[]; html: string }> {
  const json = (await (await fetch(`http://127.0.0.1:${http}/status.json`)).json()) as { players: StatusPlayer[] };
  const html = await (await fetch(`http://127.0.0.1:${http}/`)).text();
  return { players: json.players, html };
}

/** Polls the status page until `ok` holds for it; throws naming `what` after 8 s. */
async function statusWhen(http: number | undefined, what: string, ok: (s: Awaited<ReturnType<typeof status>>) => boolean): Promise<Awaited<ReturnType<typeof status>>> {
  const seen: { last?: Awaited<ReturnType<typeof status>> } = {};
  try {
    return await waitFor(what, async () => {
      const s = await status(http);
      seen.last = s;
      return ok(s) ? s : null;
    }, 8000, 50);
  } catch (err) {
    throw new Error(`${(err as Error).message}: ${JSON.stringify(seen.last?.players)}`, { cause: err });
  }
}

/** Joins over raw TCP (no game packets); `port` undefined = the default client port 6526. */
async function rawJoin(tcp: number, name: string, port?: number): Promise<LineClient> {
  const c = await LineClient.open(tcp);
  lines.push(c);
  c.send(formatJoin({ version: '1.0', name, os: 'test-os', ...(port === undefined ? {} : { port }) }));
  expect(await c.next()).toMatch(/accepted/);
  return c;
}

describe('where a player plays from, on the status pages', () => {
  it('a game joined through a gameserver shows as 127.0.0.1:<its UDP port> once its packets arrive, and as its TCP connection before', { timeout: 20_000 }, async () => {
    const server = await startServer(['gameserver', '--name', 'Where', '--port', '0', '--udp-port', '0', '--http-port', '0']);
    // The game's own client port, 6526 (or the next free one when another game has it).
    const player = await startTestHost('shell', { protocol: 'gameserver', clientPort: 6526 });
    hosts.push(player);
    const udpPort = player.host.subsystems.packetApi.table.localPort();
    await player.run(`connect 127.0.0.1:${server.tcp}`);
    await until('joined', () => /joined gameserver "Where"/.test(player.text()));

    // A second player that joined but sent no game packet yet: its TCP connection.
    const waiting = await rawJoin(server.tcp, 'waiting', 7005);
    const tcpSource = `127.0.0.1:${waiting.socket.localPort}`;

    const s = await statusWhen(server.http, 'the game player seen on UDP', (st) => st.players.some((p) => p.name === 'shell' && p.via === 'udp'));
    expect(s.players.find((p) => p.name === 'shell')).toMatchObject({ playsFrom: `127.0.0.1:${udpPort}`, via: 'udp' });
    expect(s.players.find((p) => p.name === 'waiting')).toMatchObject({ playsFrom: tcpSource, via: 'tcp' });
    expect(s.html).toContain(`127.0.0.1:${udpPort}`);
    expect(s.html).toContain(`${tcpSource} (tcp; no game packet yet)`);
  });

  it('a slotserver player on the default port 6526 shows as 127.0.0.1:6526, not 127.0.0.1', { timeout: 20_000 }, async () => {
    const server = await startServer(['slotserver', '--name', 'Where', '--port', '0', '--udp-port', '0', '--http-port', '0']);
    await rawJoin(server.tcp, 'default');
    await rawJoin(server.tcp, 'other', 7003);
    const s = await status(server.http);
    expect(s.players.map((p) => [p.name, p.playsFrom, p.via])).toEqual([
      ['default', '127.0.0.1:6526', 'udp'],
      ['other', '127.0.0.1:7003', 'udp'],
    ]);
    expect(s.html).toContain('127.0.0.1:6526');
  });
});
