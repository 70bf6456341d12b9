/**
 * A Starlane server process inside a host of a virtual namespace LAN
 * (netns.ts): `node out/main/server.js <args>` started there, resolved once
 * it prints its "listening on" line, rejected with its output when it exits
 * first or is silent for 10 s. The caller keeps the process (to stop it).
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Lan, LanHost } from './netns';
import { SERVER_NODE_FLAGS, serverEntry } from './serverProcess';
import { repoRoot } from './webShellProcess';

export async function startServerIn(lan: Lan, host: LanHost, args: string[], keep: ChildProcess[]): Promise<ChildProcess> {
  const child = lan.spawn(host, process.execPath, [...SERVER_NODE_FLAGS, serverEntry, ...args, '--log-level', 'warn'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  keep.push(child);
  let out = '';
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} in ${host.name} did not listen within 10 s:\n${out}`)), 10_000);
    child.once('exit', (code) => reject(new Error(`${args[0]} in ${host.name} exited (${code}):\n${out}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      out += `${line}\n`;
      if (/listening on tcp/.test(line)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return child;
}
