/**
 * The servers' status pages in a real browser: they open, list what they
 * should, and names that look like HTML are shown as text and run nothing.
 */
import { connect } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { startServer, stopServers } from '../support/serverProcess';

/** Joins a slotserver over raw TCP as `name` with game port `udpPort`; resolves once accepted. */
function joinAs(port: number, name: string, udpPort: number): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port }, () => s.write(`version: 1.0 join me: ${name} os: linux port: ${udpPort}\n`));
    s.setEncoding('utf8');
    s.on('data', (d: string) => (/accepted/.test(d) ? resolve(() => s.destroy()) : /server full|invalid|taken/.test(d) && reject(new Error(d))));
    s.on('error', reject);
  });
}

describe('server status pages in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(stopServers);

  it('the slotserver page lists players; an HTML-looking name is text and runs nothing', async () => {
    const server = await startServer(['slotserver', '--name', 'Test', '--port', '0', '--udp-port', '0', '--http-port', '0']);
    // Each joins with its own UDP port: the server tells players apart by address and port.
    const leave = [await joinAs(server.tcp, '<img src=x>', 7001), await joinAs(server.tcp, '<b onclick=x>', 7002)];
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`http://127.0.0.1:${server.http}/`);
    const body = await page.textContent('body');
    expect(body).toContain('<img src=x>');
    expect(body).toContain('<b onclick=x>');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('b').count()).toBe(0);
    expect(dialogs).toEqual([]);
    leave.forEach((l) => l());
  });

  it('the masterserver page lists a registered server as "n/max" and escapes its name', async () => {
    const master = await startServer(['masterserver', '--port', '0', '--http-port', '0']);
    const name = '<img_src=x_onerror=alert(1)>';
    await new Promise<void>((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port: master.tcp }, () =>
        s.write(`version: 1.0 join me: ${name} os: linux maxplayers: 16 url: http://x.example/\nplayers: 3 max: 16\n`),
      );
      s.setEncoding('utf8');
      s.on('data', (d: string) => /players acknowledged\./.test(d) && resolve());
      s.on('error', reject);
    });
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`http://127.0.0.1:${master.http}/`);
    const body = await page.textContent('body');
    expect(body).toContain(name);
    expect(body).toContain('3/16');
    expect(await page.locator('img').count()).toBe(0);
    // Two animation frames after load: anything the page's own code would run has had its turn.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(dialogs).toEqual([]);
  });
});
