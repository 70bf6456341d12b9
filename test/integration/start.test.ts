import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/webShellProcess';
import { spawnTracked, tempDir } from '../support/testRun';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

describe('npm start without a usable Electron', () => {
  it('says why in one line and serves the game through the browser shell instead', { timeout: 90_000 }, async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      STARLANE_NO_ELECTRON_DOWNLOAD: '1',
      // npm test has just built out/; rebuilding would pull files from under the other suites.
      STARLANE_NO_BUILD: '1',
      STARLANE_USER_DATA: tempDir('start'),
      STARLANE_LOG_LEVEL: 'warn',
    };
    // Without a display Electron cannot open a window either, so this holds where the binary exists too.
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    const child = spawnTracked(
      process.execPath,
      ['scripts/start.mjs', '--port', '0', '--client-port', String(await freeUdpPorts(P2P_PORT_SPAN)), '--broadcast', '127.255.255.255', '--lan-interfaces', 'none'],
      { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const m = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
          if (m?.[1]) {
            clearInterval(timer);
            resolve(m[1]);
          }
        }, 50);
        void exited.then((code) => {
          clearInterval(timer);
          reject(new Error(`npm start exited (${code}) early:\n${out}`));
        });
      });
      const reasons = out.split('\n').filter((l) => l.startsWith('Starlane: Electron cannot start here:'));
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).toMatch(/starting the browser shell instead/);
      expect((await fetch(url)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
