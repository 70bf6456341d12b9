/**
 * A new player's first evening: practise offline in the game page against a
 * computer pilot with every weapon (lasers held down for 3 s, a missile, a
 * mine, an EMP) and a chat line typed while offline, then join a real
 * gameserver process with a headless bot on it. The server judges the
 * newcomer honest: no strike in its status JSON, the player still seated 15
 * s (600 game ticks) later, the bot seen in the page, nothing removed, and
 * the offline chat line never reached the bot. A soak: the 15 s are real
 * time (the soak project, `npm run test:soak`; its browser pages live in
 * test/soak/page, typed with the e2e pages).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleText, openWatchedGame, type, waitConsole, waitTicks } from '../../e2e/gamePage';
import type { GameTarget } from '../../support/gameTarget';
import { serverBot, type BotWatch } from '../../support/botProcess';
import { startServer, stopServers, type ServerProcess } from '../../support/serverProcess';

interface StatusPlayer {
  name: string;
  strikes: number;
}
interface Status {
  players: StatusPlayer[];
  strikes: Record<string, number> | number;
  kicked: number;
}

async function status(server: ServerProcess): Promise<Status> {
  return (await (await fetch(`http://127.0.0.1:${server.http}/status.json`)).json()) as Status;
}

/** Holds `key` until one of our objects of `kind` flies (and at least `ticks` game ticks), with the console closed. */
async function fire(page: Page, key: string, kind: string, ticks = 4): Promise<void> {
  await page.keyboard.down(key);
  await page.waitForFunction(
    (k) => {
      const w = window.__starlane!.world();
      return w.objects.some((o) => o.owner === w.localSlot && o.kind === k);
    },
    kind,
    { timeout: 20_000, polling: 'raf' },
  );
  await waitTicks(page, ticks);
  await page.keyboard.up(key);
}

describe('practise offline, then join a gameserver (the game page and real processes)', () => {
  let game: GameTarget;
  let page: Page;
  let server: ServerProcess;
  let bot: BotWatch;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startServer(['gameserver', '--name', 'Evening', '--port', '0', '--udp-port', '0', '--http-port', '0']);
    bot = serverBot('gameserver', 'owl', `127.0.0.1:${server.tcp}`, 11);
    await bot.until('the bot is in the game', () => bot.players()?.players.some((p) => p.name === 'owl' && p.joined), 20_000);
    game = await openWatchedGame(problems);
    page = game.page;
  }, 120_000);

  afterAll(async () => {
    await game?.close();
    bot?.child.kill('SIGINT');
    await bot?.exited();
    stopServers();
  });

  it('is judged honest: no strike, still seated 15 s later, the bot seen, the offline chat line never sent', async () => {
    await page.keyboard.press('Backquote');
    await type(page, 'bot add 1 1');
    await waitConsole(page, /1 bot of skill 1 joined/);
    await type(page, 'practising before the evening');
    await page.keyboard.press('Backquote');
    // Every weapon: lasers held down for 3 s, a missile, a mine, and the EMP once the energy is back.
    await fire(page, 'Space', 'laser', 120);
    await fire(page, 'KeyF', 'missile');
    await fire(page, 'KeyG', 'mine');
    await page.waitForFunction(() => (window.__starlane!.world().ships.find((s) => s.slot === 0)?.energy ?? 0) >= 75, undefined, { timeout: 20_000 });
    await fire(page, 'KeyR', 'emp');
    await page.keyboard.press('Backquote');
    await type(page, 'protocol gameserver');
    await waitConsole(page, /protocol offline -> gameserver/);
    await type(page, `connect 127.0.0.1:${server.tcp}`);
    await waitConsole(page, /joined gameserver "Evening" as slot 1/, 20_000);
    await page.keyboard.press('Backquote');
    // In the game: the bot's ship (slot 0) shown beside ours.
    await page.waitForFunction(() => window.__starlane!.world().ships.some((s) => s.slot === 0), undefined, { timeout: 20_000 });
    // A few shots in the game itself, then 15 s of play.
    await fire(page, 'Space', 'laser', 40);
    await waitTicks(page, 600);

    const s = await status(server);
    const me = s.players.find((p) => p.name !== 'owl');
    console.log(`e2e practise-then-join: 15 s after joining, the server seats ${s.players.map((p) => `${p.name} (${p.strikes} strikes)`).join(', ')}; dropped for bad data: ${s.kicked}`);
    expect(me).toBeDefined();
    expect(me?.strikes).toBe(0);
    expect(s.kicked).toBe(0);
    const text = await consoleText(page);
    expect(text).not.toMatch(/removed|bad data|strikes/i);
    expect(bot.prints().join('\n')).not.toMatch(/practising before the evening/);
    expect(await page.evaluate(() => window.__starlane!.world().ships.length)).toBeGreaterThanOrEqual(2);
    expect(problems).toEqual([]);
  }, 120_000);
});
