/**
 * Two Starlane instances on one machine with one user-data folder (README's
 * LAN recipe): each keeps its own settings — name and history — across a
 * restart of either while the other runs.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openHostSocket } from '../support/hostSocket';
import { tempDir } from '../support/testRun';
import { startWebShell, type WebShellProcess } from '../support/webShellProcess';

const running: WebShellProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
});

async function start(userData: string): Promise<WebShellProcess> {
  const shell = await startWebShell([], userData);
  running.push(shell);
  return shell;
}

/** The settings file the shell said it uses (its stdout line `settings: <path>`). */
const settingsFile = (shell: WebShellProcess) => /^settings: (.+)$/m.exec(shell.output())?.[1];

/** Name and history the shell's host has now, as a page would get them. */
async function profileOf(shell: WebShellProcess): Promise<{ name: string; history: string[]; backlog: string }> {
  const socket = await openHostSocket(shell);
  const hello = await socket.hello();
  socket.close();
  return { name: hello.settings.playerName, history: hello.settings.history, backlog: hello.consoleBacklog.map((l) => l.text).join('\n') };
}

async function rename(shell: WebShellProcess, name: string): Promise<void> {
  const socket = await openHostSocket(shell);
  const done = socket.nextConsole(new RegExp(`^you are now known as ${name}$`));
  socket.command(`name ${name}`);
  await done;
  socket.close();
}

describe('two instances on one machine', () => {
  it('keep their own names and histories across a restart of each, and say which settings file they use', async () => {
    const userData = tempDir('two-instances');
    const alpha = await start(userData);
    const bravo = await start(userData);
    expect(settingsFile(alpha)).toBe(join(userData, 'settings.json'));
    expect(settingsFile(bravo)).toBe(join(userData, 'instance-2', 'settings.json'));

    const first = await profileOf(bravo);
    expect(first.name, 'the second instance starts from the main settings under its own name').toBe('pilot-2');
    expect(first.backlog).toContain(
      `settings: ${join(userData, 'instance-2', 'settings.json')} — instance 2: another Starlane (pid ${alpha.child.pid}) is using ${join(userData, 'settings.json')}`,
    );
    expect((await profileOf(alpha)).backlog).toMatch(new RegExp(`^settings: ${join(userData, 'settings.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));

    await rename(alpha, 'alpha');
    await rename(bravo, 'bravo');

    // Restart the second while the first runs: it gets its own folder back.
    await bravo.stop();
    const bravo2 = await start(userData);
    expect(settingsFile(bravo2)).toBe(join(userData, 'instance-2', 'settings.json'));
    expect(await profileOf(bravo2)).toMatchObject({ name: 'bravo', history: ['name bravo'] });

    // Restart the first while the second runs: the main folder is free again, with its own name.
    await alpha.stop();
    const alpha2 = await start(userData);
    expect(settingsFile(alpha2)).toBe(join(userData, 'settings.json'));
    expect(await profileOf(alpha2)).toMatchObject({ name: 'alpha', history: ['name alpha'] });
    expect((await profileOf(bravo2)).name).toBe('bravo');
  });
});
