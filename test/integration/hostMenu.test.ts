/**
 * The menu's commands in a complete host (the menu's buttons run them, and
 * so may the console or a script): every start opens on the main menu;
 * `menu <page>` shows a page on every page attached and on pages that attach
 * later; `practice 2 4` leaves a network game for the offline one with two
 * bots of skill 4 and closes the menu; `leave` sends them home and opens the
 * main menu. A join that fails says why where the player is looking: in
 * the server browser while it shows, in a dialog over another menu page,
 * and only in the console while the menu is closed.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../src/shared/host/contract';
import { startTestHost, type TestHost } from '../support/testHost';
import { waitFor } from '../support/waitFor';

const hosts: TestHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
});

const menuEvents = (events: HostEvent[]) => events.flatMap((e) => (e.kind === 'menu' ? [e.menu.page] : []));

describe('menu, practice and leave on the host', () => {
  it('opens on the main menu; menu settings and menu off reach every page and a page attaching later', async () => {
    const t = await startTestHost('alpha');
    hosts.push(t);
    expect(t.host.hello().menu).toEqual({ page: 'main', dialog: null });
    await t.run('menu settings');
    await t.run('menu off');
    await new Promise((r) => setImmediate(r));
    expect(menuEvents(t.events)).toEqual(['settings', 'off']);
    expect(t.host.hello().menu.page).toBe('off');
    await t.run('menu');
    await t.run('menu lobby');
    await new Promise((r) => setImmediate(r));
    expect(t.text()).toMatch(/^menu: closed \(menu main\|servers\|demos\|settings\|off\)$/m);
    expect(t.text()).toMatch(/^menu: no page "lobby" \(pages: main, practice, lan, host, servers, demos, settings, pause, off\)$/m);
    expect(t.host.hello().menu.page).toBe('off');
  });

  it('practice 2 4 leaves a peer-to-peer game for two bots of skill 4 offline and closes the menu; leave sends them home and opens the main menu', async () => {
    const t = await startTestHost('alpha', { protocol: 'p2p' });
    hosts.push(t);
    await t.run('connect');
    await waitFor('alone in a peer-to-peer game', () => /connected to the peer-to-peer game as slot 0/.test(t.text()));
    await t.run('practice 2 4');
    await new Promise((r) => setImmediate(r));
    expect(t.host.subsystems.protocol.bound()).toBe('offline');
    const game = t.host.game!;
    expect(game.game.bots.length).toBe(2);
    expect(game.game.bots.map((s) => game.crew.skillOf(s))).toEqual([4, 4]);
    expect(t.host.hello().menu.page).toBe('off');
    // Practice again: the old bots go, the new ones come.
    await t.run('practice 1');
    expect(game.game.bots.length).toBe(1);
    await t.run('practice x');
    await new Promise((r) => setImmediate(r));
    expect(t.text()).toMatch(/^practice: the number of bots must be a whole number \(got "x"\)/m);
    expect(game.game.bots.length).toBe(1);
    await t.run('leave');
    await new Promise((r) => setImmediate(r));
    expect(game.game.bots.length).toBe(0);
    expect(t.host.hello().menu.page).toBe('main');
  });

  it('a failed join: the reason in the browser on its page, a dialog over the main menu, the console only with the menu closed', async () => {
    const t = await startTestHost('alpha', { protocol: 'gameserver' });
    hosts.push(t);
    // A TCP port nothing listens on.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const failures = () => (t.text().match(/nothing is listening at 127\.0\.0\.1/g) ?? []).length;
    await t.run(`connect 127.0.0.1:${port}`);
    await waitFor('the first refusal', () => failures() === 1);
    await new Promise((r) => setImmediate(r));
    expect(t.host.menu.page).toBe('main');
    expect(t.host.menu.dialog).toEqual({ title: 'Could not join', text: expect.stringMatching(/nothing is listening at 127\.0\.0\.1/), actions: [{ label: 'OK', command: 'menu main' }] });
    await t.run('menu servers');
    await t.run(`connect 127.0.0.1:${port}`);
    await waitFor('the second refusal', () => failures() === 2);
    await new Promise((r) => setImmediate(r));
    expect(t.host.menu.dialog).toBeNull();
    expect(t.host.browser.joinError).toEqual({ address: `127.0.0.1:${port}`, reason: expect.stringMatching(/nothing is listening at 127\.0\.0\.1/) });
    await t.run('menu off');
    await t.run(`connect 127.0.0.1:${port}`);
    await waitFor('the third refusal', () => failures() === 3);
    await new Promise((r) => setImmediate(r));
    expect(t.host.menu).toEqual({ page: 'off', dialog: null });
  });
});
