/**
 * A server configured by its environment alone, as a container is
 * (`STARLANE_<OPTION>`, src/node/servers/cliEnvironment.ts): the built server
 * started with no option at all listens where the variables say, under the
 * name and with the seats they give, the command line still wins over them,
 * and a bad value stops the start with one line naming the variable.
 * Real processes from the build (`npx electron-vite build` first).
 */
import { describe, expect, it } from 'vitest';
import { serverEntry, SERVER_NODE_FLAGS } from '../support/serverProcess';
import { spawnTracked } from '../support/testRun';

interface Run {
  stdout: () => string;
  stderr: () => string;
  kill: () => void;
  closed: Promise<number | null>;
}

/** `node out/main/server.js <args>` with `env` added to the environment (and any STARLANE_ option variable of the test's own removed). */
function server(args: string[], env: Record<string, string>): Run {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^STARLANE_(?!TEST_)/.test(k)));
  const child = spawnTracked(process.execPath, [...SERVER_NODE_FLAGS, serverEntry, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...base, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return { stdout: () => stdout, stderr: () => stderr, kill: () => child.kill('SIGTERM'), closed: new Promise((r) => child.once('close', (code) => r(code))) };
}

/** Waits for the announce line (or the process's end, which fails). */
function announced(run: Run): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /^(\w+) "(.*)" listening on tcp (\d+)(?:, udp (\d+))?(?:, http (\d+))?$/m.exec(run.stdout());
      if (m) {
        clearInterval(timer);
        resolve(m);
      }
    }, 20);
    void run.closed.then((code) => (clearInterval(timer), reject(new Error(`exited (${code}) before listening:\n${run.stderr()}`))));
  });
}

const ENV = { STARLANE_HOST: '127.0.0.1', STARLANE_PORT: '0', STARLANE_UDP_PORT: '0', STARLANE_HTTP_PORT: '0', STARLANE_NAME: 'Env_Galaxy', STARLANE_MAX_PLAYERS: '7', STARLANE_KILL_LIMIT: '9', STARLANE_LOG_LEVEL: 'warn' };

describe('a server configured by the environment', () => {
  it('a gameserver started with no options listens, names itself and seats as STARLANE_* say', async () => {
    const run = server(['gameserver'], ENV);
    try {
      const m = await announced(run);
      expect([m[1], m[2]]).toEqual(['gameserver', 'Env_Galaxy']);
      expect(Number(m[3])).toBeGreaterThan(0);
      const status = (await (await fetch(`http://127.0.0.1:${m[5]}/status.json`)).json()) as { name: string; maxPlayers: number; udpPort: number; match: { killLimit: number } };
      expect(status).toMatchObject({ name: 'Env_Galaxy', maxPlayers: 7, udpPort: Number(m[4]), match: { killLimit: 9 } });
    } finally {
      run.kill();
      expect(await run.closed).toBe(0);
    }
  });

  it('the command line wins over the environment, and a masterserver takes its variables too', async () => {
    const game = server(['gameserver', '--max-players', '5', '--name', 'Cli_Name'], ENV);
    const master = server(['masterserver'], { ...ENV, STARLANE_NAME: 'Env_Master', STARLANE_MAX_SERVERS: '3' });
    try {
      const [g, ms] = await Promise.all([announced(game), announced(master)]);
      expect(g[2]).toBe('Cli_Name');
      expect(((await (await fetch(`http://127.0.0.1:${g[5]}/status.json`)).json()) as { maxPlayers: number }).maxPlayers).toBe(5);
      expect([ms[1], ms[2]]).toEqual(['masterserver', 'Env_Master']);
      expect(((await (await fetch(`http://127.0.0.1:${ms[5]}/status.json`)).json()) as { name: string }).name).toBe('Env_Master');
    } finally {
      game.kill();
      master.kill();
      await Promise.all([game.closed, master.closed]);
    }
  });

  it('a bad value in a variable stops the start with one line naming the variable', async () => {
    const run = server(['gameserver'], { ...ENV, STARLANE_MAX_PLAYERS: 'lots' });
    expect(await run.closed).not.toBe(0);
    expect(run.stdout()).toBe('');
    expect(run.stderr().trim().split('\n')).toEqual(["error: option '--max-players <n>' value 'lots' from env 'STARLANE_MAX_PLAYERS' is invalid. must be an integer from 1 to 255", '(add --help for usage)']);
  });

  it('--help names the variable of each option', async () => {
    const run = server(['gameserver', '--help'], {});
    expect(await run.closed).toBe(0);
    for (const name of ['STARLANE_PORT', 'STARLANE_UDP_PORT', 'STARLANE_MAX_PLAYERS', 'STARLANE_UNIVERSE_KEY', 'STARLANE_LOG_LEVEL', 'STARLANE_AGONES']) expect(run.stdout()).toContain(`env: ${name}`);
  });
});
