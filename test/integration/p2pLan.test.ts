/**
 * Peer-to-peer play on a virtual LAN: headless bots (the built
 * out/main/bot.js, the same network core as the game) in five network
 * namespaces joined by a bridge, finding each other by real IPv4 broadcast.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupStaleLans, createLan, lanAvailable, type Lan, type LanHost } from '../support/netns';
import { BotWatch } from '../support/botProcess';
import { repoRoot } from '../support/webShellProcess';

import { botEntry } from '../support/paths';
/** The bots' alive timeout (P2pConfig default) plus a margin for timers and process start. */
const ALIVE_TIMEOUT_MS = 3000;

describe('peer-to-peer on a virtual LAN of network namespaces', () => {
  let lan: Lan;
  const bots: BotWatch[] = [];

  function startBot(host: LanHost, name: string): BotWatch {
    const child = lan.spawn(
      host,
      process.execPath,
      [botEntry, '--json', '--name', name, '--broadcast', host.broadcast, '--lan-interfaces', 'none', '--max-players', '4', '--seed', String(bots.length + 1)],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const bot = new BotWatch(name, child);
    bots.push(bot);
    return bot;
  }

  const slotTable = (bot: BotWatch) =>
    JSON.stringify((bot.players()?.players ?? []).map((p) => [p.slot, p.name, p.address]).sort());

  beforeAll(async () => {
    if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
    const why = await lanAvailable();
    if (why) throw new Error(`cannot build the virtual LAN here: ${why}`);
    await cleanupStaleLans();
    lan = await createLan({ hosts: 5 });
  }, 60_000);

  afterAll(async () => {
    await lan?.destroy();
  });

  it('four bots started together converge on one slot table and receive each other', { timeout: 30_000 }, async () => {
    const four = lan.hosts.slice(0, 4).map((h, i) => startBot(h, `bot${i + 1}`));
    for (const bot of four) await bot.until('4 players', () => (bot.players()?.players.length === 4 ? true : undefined), 15_000);
    const tables = four.map(slotTable);
    expect(new Set(tables).size).toBe(1);
    const slots = (four[0]?.players()?.players ?? []).map((p) => p.slot).sort();
    expect(slots).toEqual([0, 1, 2, 3]);
    // Everyone hears everyone: states from each of the three others.
    for (const bot of four) {
      const mine = bot.players()?.localSlot;
      await bot.until('states from the 3 others', () => {
        const got = bot.received();
        return slots.filter((s) => s !== mine).every((s) => (got[String(s)] ?? 0) > 5) ? true : undefined;
      });
    }
  });

  it('a fifth bot is refused with "game full" and exits with code 2, saying so', { timeout: 20_000 }, async () => {
    const fifth = startBot(lan.hosts[4] as LanHost, 'bot5');
    expect(await fifth.exited()).toBe(2);
    expect(fifth.prints().find((l) => /game full/i.test(l))).toMatch(/^connect failed: game full/);
    expect(fifth.stderr).toMatch(/starlane-bot: cannot join: game full/);
    expect(fifth.players()?.localSlot ?? null).toBeNull();
  });

  it('a SIGKILLed bot is dropped within the alive timeout, the rest play on, and a newcomer takes its slot', { timeout: 30_000 }, async () => {
    const [b1, b2, b3, b4] = bots as [BotWatch, BotWatch, BotWatch, BotWatch];
    const victimSlot = b2.players()?.localSlot;
    const killedAt = Date.now();
    b2.child.kill('SIGKILL');
    for (const bot of [b1, b3, b4]) {
      await bot.until('3 players after the kill', () => (bot.players()?.players.length === 3 ? true : undefined), ALIVE_TIMEOUT_MS + 3000);
    }
    const freedAfter = Date.now() - killedAt;
    console.log(`p2p LAN: crashed peer removed by all others after ${freedAfter} ms (alive timeout ${ALIVE_TIMEOUT_MS} ms)`);
    expect(freedAfter).toBeLessThan(ALIVE_TIMEOUT_MS + 3000);
    expect(b1.prints().some((l) => /lost connection to bot2/.test(l))).toBe(true);
    // Play goes on: the survivors still receive each other's states.
    const before = b1.received();
    await b1.until('more states after the kill', () => {
      const now = b1.received();
      return Object.keys(before).filter((s) => Number(s) !== victimSlot).every((s) => (now[s] ?? 0) > (before[s] ?? 0)) ? true : undefined;
    });
    const newcomer = startBot(lan.hosts[4] as LanHost, 'bot6');
    await newcomer.until('a slot', () => (newcomer.players()?.localSlot ?? null) !== null, 10_000);
    expect(newcomer.players()?.localSlot).toBe(victimSlot);
    for (const bot of [b1, b3, b4]) await bot.until('bot6 in the table', () => bot.players()?.players.some((p) => p.name === 'bot6'));
  });
});
