/**
 * What an admin reads when a command cannot start: a mistake on the command
 * line is one error line and a pointer to --help (not the whole help).
 * Real processes from the build (out/main/*.js);
 * needs `npx electron-vite build` first.
 */
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { botEntry, serverEntry, webEntry } from '../support/paths';
import { spawnTracked } from '../support/testRun';

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <entry> <args>` to its exit. */
function run(entry: string, args: readonly string[]): Promise<Outcome> {
  const child = spawnTracked(process.execPath, [entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

beforeAll(() => {
  for (const entry of [serverEntry, webEntry, botEntry]) {
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npx electron-vite build" (or "npm test", which builds) first`);
  }
});

describe('a command-line mistake', () => {
  it.each([
    ['server gameserver', serverEntry, ['gameserver', '--bogus'], "error: unknown option '--bogus'"],
    ['server masterserver', serverEntry, ['masterserver', '--port', 'many'], "error: option '--port <port>' argument 'many' is invalid. must be an integer from 0 to 65535"],
    ['server', serverEntry, ['lobbyserver'], "error: unknown command 'lobbyserver'"],
    ['browser shell', webEntry, ['--bogus'], "error: unknown option '--bogus'"],
    ['bot', botEntry, ['--pilot', 'sleepy'], "error: option '--pilot <pilot>' argument 'sleepy' is invalid. Allowed choices are circle, idle, hunt."],
  ])('%s: prints the error and a pointer to --help, not the whole help, and fails', async (_what, entry, args, error) => {
    const r = await run(entry, args);
    expect(r.code).not.toBe(0);
    expect(lines(r.stderr)).toEqual([error, '(add --help for usage)']);
    expect(r.stdout).toBe('');
  });

  it('a slotserver with --master but no page to link gets one line and the pointer too', async () => {
    const r = await run(serverEntry, ['slotserver', '--port', '0', '--udp-port', '0', '--master', '127.0.0.1:1']);
    expect(r.code).not.toBe(0);
    expect(lines(r.stderr)).toEqual(['error: --master needs --url (or --http-port, whose status page is then the URL)', '(add --help for usage)']);
  });
});
