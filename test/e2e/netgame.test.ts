/**
 * Two players on one machine in a netgame hosted by one of them: two browser
 * shells (two hosts with their own sockets) and two Chromium pages on
 * loopback. alpha's `host netgame` starts a netgame server inside alpha's own
 * host process and joins it as slot 0; bravo connects to it by address as
 * slot 1. Both pages show the game the server runs; when alpha leaves, the
 * server closes and bravo is told and plays offline again.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { itSharesOneWorld } from './sharedGameSteps';
import { consoleText, twoPlayersForTheseTests, type, waitConsole } from './gamePage';

/**
 * The TCP port in alpha's `hosting netgame` line. The console wraps long lines
 * at the terminal's width (a wrap is a newline in consoleText, and a space at
 * the wrap is trimmed), so the text is read with the newlines taken out and
 * the spaces around the port optional.
 */
async function hostedPort(page: Page): Promise<number> {
  const found = await page.waitForFunction(
    () => /hosting netgame "alpha's netgame" on ?tcp ?(\d+), ?udp ?\d+/.exec((window.__starlane?.consoleText() ?? '').replace(/\n/g, ''))?.[1] ?? false,
    undefined,
    { timeout: 10_000 },
  );
  return Number(await found.jsonValue());
}

/** How many lines of `page`'s console are exactly `line`. */
async function countLines(page: Page, line: string): Promise<number> {
  return (await consoleText(page)).split('\n').filter((l) => l === line).length;
}

describe('two players in a netgame hosted by one of them, in headless Chromium', () => {
  let alpha: Page;
  let bravo: Page;
  let problems: string[] = [];
  let port = 0;
  twoPlayersForTheseTests((players) => ({ alpha, bravo, problems } = players));

  it('alpha hosts a netgame in its own game and is its slot 0', async () => {
    await alpha.keyboard.press('Backquote');
    await type(alpha, 'name alpha');
    await type(alpha, 'host netgame');
    port = await hostedPort(alpha);
    console.log(`alpha hosts its netgame on tcp ${port}`);
    expect(port).toBeGreaterThan(0);
    await waitConsole(alpha, /joined netgame "alpha's netgame" as slot 0/);
    await waitConsole(alpha, /in the netgame as slot 0 from frame \d+/);
  });

  it("bravo joins alpha's netgame by address as slot 1", async () => {
    await bravo.keyboard.press('Backquote');
    await type(bravo, 'name bravo');
    // The clock's figures are connection internals, printed with net_verbose 1 (a later step waits for them).
    await type(bravo, 'net_verbose 1');
    await type(bravo, 'protocol netgame');
    await waitConsole(bravo, /protocol offline -> netgame/);
    await type(bravo, `connect 127.0.0.1:${port}`);
    await waitConsole(bravo, /joined netgame "alpha's netgame" as slot 1/);
    await waitConsole(bravo, /in the netgame as slot 1 from frame \d+/);
  });

  it('players on bravo lists alpha as slot 0 and the netgame figures', async () => {
    // Both ships are in the game bravo shows. bravo's own row says joined only once its clock is synchronised
    // with the server (the session's join), which may come a little after its ship entered the netgame.
    await bravo.waitForFunction(() => window.__starlane?.world().ships.map((s) => s.slot).sort().join() === '0,1', undefined, { timeout: 10_000 });
    await waitConsole(bravo, /^clock synchronised with /m);
    await type(bravo, 'players');
    await waitConsole(bravo, /^0\s+alpha\s+127\.0\.0\.1:\d+\s+(\?|\d+ ms)\s+joined/m);
    await waitConsole(bravo, /^1\s+bravo\s+\S+\s+-\s+joined \(you\)/m);
    // Only the line's head: the console wraps it at the page's width.
    await waitConsole(bravo, /^netgame: frame \d+, server -?\d+ frames ahead, control lead \d+/m);
    console.log(`bravo's players:\n${(await consoleText(bravo)).split('\n').filter((l) => /^(slot|\d+ |netgame:)/.test(l)).join('\n')}`);
  });

  itSharesOneWorld(
    () => ({ alpha, bravo, problems }),
    { test: 'both pages show the netgame frame a few ticks apart at most', label: 'netgame' },
    { test: 'each page draws the netgame without errors (screenshots)', prefix: 'netgame' },
  );

  it('when alpha disconnects, bravo is told its host left (not that a server removed it) and plays offline again', async () => {
    await alpha.keyboard.press('Backquote');
    await alpha.waitForSelector('#console', { state: 'visible' });
    await type(alpha, 'disconnect');
    await waitConsole(alpha, /^disconnected from the netgame$/m);
    await waitConsole(bravo, /the netgame "alpha's netgame" closed: its host left the game\. You are not in a game/);
    // Offline again: bravo's game no longer shows alpha's ship, and `players` says it is not connected.
    await bravo.waitForFunction(() => window.__starlane?.remotes().every((r) => r.name !== 'alpha') ?? false, undefined, { timeout: 10_000 });
    const before = await countLines(bravo, 'not connected');
    await bravo.keyboard.press('Backquote');
    await bravo.waitForSelector('#console', { state: 'visible' });
    await type(bravo, 'players');
    await bravo.waitForFunction(
      ([n]) => (window.__starlane?.consoleText() ?? '').split('\n').filter((l) => l === 'not connected').length > n,
      [before] as const,
      { timeout: 10_000 },
    );
    const view = await bravo.evaluate(() => {
      const w = window.__starlane?.world();
      return { localSlot: w?.localSlot, ships: w?.ships.map((s) => s.slot), remotes: window.__starlane?.remotes().map((r) => `${r.slot}:${r.name}`) };
    });
    console.log(`bravo after alpha left: ${JSON.stringify(view)}`);
    expect(view.remotes, 'no other ship in bravo\'s offline game').toEqual([]);
    expect(problems).toEqual([]);
  });
});
