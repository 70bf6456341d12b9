/**
 * Two players on one machine in a `protocol lockstep` game: two browser
 * shells (two hosts with their own UDP sockets) and two Chromium pages on
 * loopback. Every peer steps one shared world with every pilot's input; each
 * page shows that world.
 */
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { itSharesOneWorld } from './sharedGameSteps';
import { bothNamedOn, twoPlayersForTheseTests, type, waitConsole } from './gamePage';

describe('two players in a lockstep game in headless Chromium', () => {
  let alpha: Page;
  let bravo: Page;
  let problems: string[] = [];
  twoPlayersForTheseTests((players) => ({ alpha, bravo, problems } = players));

  it('alpha starts a lockstep game on the LAN and bravo joins it with alpha\'s state', async () => {
    await bothNamedOn(alpha, bravo, 'lockstep');
    await type(alpha, 'connect');
    await waitConsole(alpha, /connected to the peer-to-peer game as slot 0/);
    await waitConsole(alpha, /no lockstep game running here: started one \(you are its lowest slot\)/);
    await type(bravo, 'connect');
    await waitConsole(bravo, /connected to the peer-to-peer game as slot 1/);
    await waitConsole(bravo, /joined the lockstep game at frame \d+: its state came from alpha \(\d+ bytes in \d+ datagrams\)/);
  });

  it('players on bravo lists alpha and the lockstep figures', async () => {
    await type(bravo, 'players');
    await waitConsole(bravo, /0\s+alpha\s+127\.0\.0\.1:\d+\s+(\?|\d+ ms)\s+joined/);
    await waitConsole(bravo, /1\s+bravo\s+127\.0\.0\.1:\d+\s+-\s+joined \(you\)/);
    // Only the line's head: the console wraps it at the page's width (consoleText keeps the wrap as a newline).
    await waitConsole(bravo, /^lockstep: frame [1-9]\d* \(epoch \d+\), input lead \d+, frames waited \d+/m);
  });

  itSharesOneWorld(
    () => ({ alpha, bravo, problems }),
    { test: 'both pages show the same shared world frame, a few ticks apart at most', label: 'world' },
    { test: 'each page draws the game without errors (screenshots)', prefix: 'lockstep' },
  );
});
