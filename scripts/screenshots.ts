/**
 * The README's "How to play" pictures, taken from the real game:
 * `npm run screenshots` builds, starts a masterserver with a gameserver (a
 * galaxy of three solar systems), a slotserver and a netgame server
 * registered on loopback, opens the browser
 * shell in headless Chromium at 1280×720 as a new player, and saves
 * docs/images/menu.png (the main menu), servers.png (the server browser)
 * and fight.png (practice against two skill-5 bots, once one is close and
 * shooting).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/support/browser';
import { startServer, stopServers } from '../test/support/serverProcess';
import { repoRoot, startWebShell } from '../test/support/webShellProcess';
import { waitMenu } from '../test/support/frontDoor';
import { queryMaster } from '../src/node/net/masterQuery';
import { waitFor } from '../test/support/waitFor';
import { startHudPilot } from '../test/e2e/hudPilot';
import { cleanUpFile } from '../test/support/testRun';

const out = (name: string) => join(repoRoot, 'docs', 'images', name);

/** The page's hooks as far as this script reads them (it is typed without the DOM). */
type Vec = { x: number; y: number; z: number };
interface Hooks {
  __starlane: { world(): { localSlot: number; ships: { slot: number; pos: Vec; rot: Vec & { w: number } }[]; objects: { kind: string }[] }; remotes(): { pos: Vec }[]; overlays(): { target: number } };
  document: { getElementById(id: string): { textContent: string | null } | null };
}

/** Types lines into the console and closes it again. */
async function consoleLines(page: Page, ...lines: string[]): Promise<void> {
  await page.keyboard.press('Backquote');
  for (const line of lines) {
    await page.keyboard.type(line);
    await page.keyboard.press('Enter');
  }
  await page.keyboard.press('Backquote');
}

async function main(): Promise<void> {
  const master = await startServer(['masterserver', '--name', 'readme-master', '--port', '0']);
  const registered = (name: string) => ['--name', name, '--port', '0', '--udp-port', '0', '--master', `127.0.0.1:${master.tcp}`, '--url', 'http://starlane.example/'];
  const dir = mkdtempSync(join(tmpdir(), 'starlane-screenshots-'));
  const galaxy = join(dir, 'arena.galaxy');
  writeFileSync(galaxy, 'starlane galaxy 1\nsystem Sol\n  gate Vega 0 0 -400\nsystem Vega\n  gate Sol 0 0 400\n  gate Rigel 400 0 0\nsystem Rigel\n  gate Vega -400 0 0\n');
  await Promise.all([startServer(['gameserver', ...registered('Arena'), '--galaxy', galaxy]), startServer(['slotserver', ...registered('Dogfight_Club')]), startServer(['netgame', ...registered('Sunday_Netgame')])]);
  await waitFor('three servers listed, Arena with its systems', async () => {
    const listed = await queryMaster('127.0.0.1', master.tcp);
    return listed.length === 3 && listed.some((s) => s.systems.length === 3);
  }, 20_000);
  const shell = await startWebShell();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(shell.url);
    await page.waitForSelector('#menu-name-input');
    await page.fill('#menu-name-input', 'Maverick');
    await page.press('#menu-name-input', 'Enter');
    await waitMenu(page, 'menu-main');
    await page.screenshot({ path: out('menu.png') });

    await consoleLines(page, `net_master 127.0.0.1:${master.tcp}`, 'menu servers');
    await page.waitForFunction(() => (globalThis as unknown as Hooks).document.getElementById('servers-status')?.textContent === '3 servers found', undefined, { timeout: 20_000 });
    await page.screenshot({ path: out('servers.png') });

    // Two bots, and the e2e tests' gamepad pilot flying us at the one targeted (a bot may gather extras a long while before it comes to fight).
    await consoleLines(page, 'joy_deadzone 0', 'practice 2 5');
    await waitMenu(page, 'off');
    await waitFor(
      'a bot to target',
      async () => {
        await page.keyboard.press('KeyT');
        return (await page.evaluate(() => (globalThis as unknown as Hooks).__starlane.overlays().target)) >= 0;
      },
      10_000,
      300,
    );
    // tsx names the functions it compiles with a helper (__name) the page does not have: the pilot's frame function is one.
    await page.evaluate('globalThis.__name = (f) => f');
    await startHudPilot(page);
    // A bot close by in front of us, and shots in the air.
    await page.waitForFunction(
      () => {
        const s = (globalThis as unknown as Hooks).__starlane;
        const w = s.world();
        const me = w.ships.find((x) => x.slot === w.localSlot);
        if (!me) return false;
        // Our nose (body -Z, as forwardOf in src/shared/sim/vec.ts): a bot in front, close enough to see.
        const q = me.rot;
        const f = { x: -2 * (q.x * q.z + q.w * q.y), y: -2 * (q.y * q.z - q.w * q.x), z: -(1 - 2 * (q.x * q.x + q.y * q.y)) };
        const near = s.remotes().some((r) => {
          const d = { x: r.pos.x - me.pos.x, y: r.pos.y - me.pos.y, z: r.pos.z - me.pos.z };
          const dist = Math.hypot(d.x, d.y, d.z);
          return dist > 40 && dist < 260 && d.x * f.x + d.y * f.y + d.z * f.z > 0.85 * dist;
        });
        return near && w.objects.some((o) => o.kind === 'laser');
      },
      undefined,
      { timeout: 240_000, polling: 50 },
    );
    await page.screenshot({ path: out('fight.png') });
    process.stdout.write(`saved ${['menu.png', 'servers.png', 'fight.png'].map(out).join(', ')}\n`);
  } finally {
    await browser.close();
    await shell.stop();
    stopServers();
    rmSync(dir, { recursive: true, force: true });
    await cleanUpFile();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`screenshots: ${(err as Error).message}\n`);
  process.exitCode = 1;
});
