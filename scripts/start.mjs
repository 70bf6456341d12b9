#!/usr/bin/env node
/**
 * `npm start`: opens Starlane in Electron when its binary is installed (or can
 * be downloaded now); otherwise says why in one line and starts the browser
 * shell, which serves the same game to a browser on 127.0.0.1.
 *
 * STARLANE_SHELL=web forces the browser shell; STARLANE_SHELL=electron forces Electron.
 * STARLANE_NO_BUILD=1 reuses the existing build in out/ (tests).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const electronDir = join(root, 'node_modules', 'electron');
const bin = (name) => join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const passArgs = process.argv.slice(2);

function electronBinary() {
  try {
    const rel = readFileSync(join(electronDir, 'path.txt'), 'utf8').trim();
    const full = join(electronDir, 'dist', rel);
    return existsSync(full) ? full : null;
  } catch {
    return null;
  }
}

function tryDownloadElectron() {
  if (!existsSync(join(electronDir, 'install.js'))) return 'the electron package is not installed';
  if (process.env.CI || process.env.STARLANE_NO_ELECTRON_DOWNLOAD) return 'download skipped (CI or STARLANE_NO_ELECTRON_DOWNLOAD)';
  console.log('Starlane: fetching the Electron binary (first start)…');
  const r = spawnSync(process.execPath, [join(electronDir, 'install.js')], { encoding: 'utf8', timeout: 180_000 });
  if (r.status === 0 && electronBinary()) return null;
  const detail = `${r.stderr ?? ''}${r.stdout ?? ''}`.split('\n').find((l) => /error|ENOTFOUND|ECONN|EAI_AGAIN|fetch failed/i.test(l));
  return `download failed${detail ? ` (${detail.trim().slice(0, 120)})` : r.error ? ` (${r.error.message})` : ''}`;
}

function noDisplay() {
  return process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
}

function run(cmd, args) {
  const child = spawn(cmd, args, { stdio: 'inherit', cwd: root, shell: process.platform === 'win32' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function startBrowserShell(reason) {
  console.log(`Starlane: ${reason}; starting the browser shell instead (open the address it prints).`);
  if (!process.env.STARLANE_NO_BUILD) {
    const build = spawnSync(bin('electron-vite'), ['build'], { stdio: 'inherit', cwd: root, shell: process.platform === 'win32' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  run(process.execPath, [join(root, 'out', 'main', 'web.js'), ...passArgs]);
}

const wanted = process.env.STARLANE_SHELL;
if (wanted === 'web') {
  startBrowserShell('STARLANE_SHELL=web');
} else {
  let why = null;
  if (!electronBinary()) why = tryDownloadElectron();
  if (!why && noDisplay() && wanted !== 'electron') why = 'no display (DISPLAY/WAYLAND_DISPLAY unset)';
  if (why) startBrowserShell(`Electron cannot start here: ${why}`);
  else run(bin('electron-vite'), ['preview', ...passArgs]);
}
