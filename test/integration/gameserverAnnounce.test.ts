/**
 * A gameserver whose ports are mapped to others (Docker's `-p 7000:6522/udp`,
 * an Agones fleet's dynamic ports), told so with --announce-udp-port and
 * --announce-port: its join reply tells players the mapped UDP port, a bot
 * joins and plays through the mapping (test/support/udpNat.ts stands in for
 * it), and the masterserver lists the mapped ports. Real processes from the
 * build (`npx electron-vite build` first).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { botsJoined, serverBot, stopBots, type BotWatch } from '../support/botProcess';
import { LineClient } from '../support/lineClient';
import { startServer, stopServers } from '../support/serverProcess';
import { UdpNat } from '../support/udpNat';
import { waitFor } from '../support/waitFor';
import { queryMaster } from '../../src/node/net/masterQuery';

const nats: UdpNat[] = [];
const bots: BotWatch[] = [];
afterEach(async () => {
  await stopBots(bots.splice(0));
  stopServers();
  for (const n of nats.splice(0)) n.close();
});

describe('a gameserver behind a port mapping', () => {
  it('tells its players the mapped UDP port, so a bot plays through the mapping, and the masterserver lists the mapped ports', async () => {
    const master = await startServer(['masterserver', '--port', '0']);
    const nat = await UdpNat.start();
    nats.push(nat);
    const game = await startServer(['gameserver', '--name', 'Mapped', '--port', '0', '--udp-port', '0', '--http-port', '0', '--announce-udp-port', String(nat.port), '--announce-port', '7100', '--master', `127.0.0.1:${master.tcp}`]);
    nat.target = { host: '127.0.0.1', port: game.udp as number };
    expect(game.udp).not.toBe(nat.port);

    // The join reply names the mapped port, not the one the server listens on.
    const raw = await LineClient.open(game.tcp);
    raw.send('version: 1.2 join me: raw os: test port: 40000');
    expect(await raw.next()).toMatch(new RegExp(`^join from raw accepted, slot: 0, server name: Mapped, udp: ${nat.port}, token: [0-9a-f]{8}$`));
    raw.send('remove me');
    raw.socket.destroy();

    const bot = serverBot('gameserver', 'mapped1', `127.0.0.1:${game.tcp}`, 3);
    bots.push(bot);
    await botsJoined([bot]);
    type Status = { players: { name: string; via: string; playsFrom: string }[] };
    const seen = await waitFor('the bot playing over UDP through the mapping', async () => {
      const s = (await (await fetch(`http://127.0.0.1:${game.http}/status.json`)).json()) as Status;
      const p = s.players.find((x) => x.name === 'mapped1');
      return p?.via === 'udp' && nat.carried.in >= 20 && nat.carried.out >= 20 ? p : null;
    }, 20_000);
    console.log(`announced: the bot plays from ${seen.playsFrom} (the mapping's side) through public port ${nat.port} to the server's ${game.udp}: ${nat.carried.in} datagrams in, ${nat.carried.out} out`);

    const listed = await waitFor('Mapped listed', async () => (await queryMaster('127.0.0.1', master.tcp)).find((s) => s.name === 'Mapped') ?? null);
    expect([listed.port, listed.udp]).toEqual([7100, nat.port]);
  });
});
