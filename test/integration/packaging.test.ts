import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { extractAll, listPackage } from '@electron/asar';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, serverEntry } from '../support/paths';
import { spawnTracked, tempDir } from '../support/testRun';

/**
 * What the installers ship (electron-builder.yml, `npm run dist`), checked on
 * the Linux unpacked directory: the one target that needs no download.
 *
 * The Electron binary cannot be fetched here, so electron-builder is handed a
 * stand-in Electron directory (`electronDist`: a folder holding an `electron`
 * executable, which it copies and renames to the app's executable name) and
 * packs the real app around it — the same files, asar and dependencies an
 * installer gets. The test prints the packaged file list, checks what a user
 * would notice (the built app, the icon and the runtime dependencies are in;
 * sources, tests and devDependencies are out), then unpacks app.asar and runs
 * the shipped server bundle's `--help` with nothing of the checkout around it.
 */

const require = createRequire(import.meta.url);
const builderCli = require.resolve('electron-builder/cli.js');

interface PackageJson {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}
interface LockEntry {
  version: string;
  dev?: boolean;
}
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as PackageJson;
const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

/** Every file under `dir`, as forward-slash paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => statSync(join(dir, p)).isFile())
    .map((p) => p.split(sep).join('/'))
    .sort();
}

/** The package a node_modules path belongs to (`ws`, `@pinojs/redact`), or null. */
function packageOf(path: string): string | null {
  const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  return m ? (m[1] as string) : null;
}

/** The packages an `npm ci --omit=dev` would install: the production closure recorded in package-lock.json. */
function productionPackages(): string[] {
  return Object.entries(lock.packages)
    .filter(([key, entry]) => key.startsWith('node_modules/') && !entry.dev && !key.slice('node_modules/'.length).includes('/node_modules/'))
    .map(([key]) => key.slice('node_modules/'.length))
    .sort();
}

/** The file list as printed: the unpacked directory, app.asar's own files, and each shipped package with its file count. */
function describeBuild(unpacked: string[], app: string[]): string {
  const perPackage = new Map<string, number>();
  for (const f of app) {
    const name = packageOf(f);
    if (name) perPackage.set(name, (perPackage.get(name) ?? 0) + 1);
  }
  const lines = [
    `linux-unpacked: ${unpacked.length} files`,
    ...unpacked.map((f) => `  ${f}`),
    `resources/app.asar: ${app.length} files`,
    ...app.filter((f) => !packageOf(f)).map((f) => `  ${f}`),
    ...[...perPackage].map(([name, count]) => `  node_modules/${name}@${lock.packages[`node_modules/${name}`]?.version ?? '?'} (${count} files)`),
  ];
  return lines.join('\n');
}

let unpackedDir = '';
let unpacked: string[] = [];
let app: string[] = [];
let extracted = '';
let builderLog = '';

beforeAll(async () => {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npx electron-vite build" (or "npm test", which builds) first`);
  const tmp = tempDir('packaging');

  // The stand-in Electron: what electron-builder copies for a custom unpacked distribution.
  const electronDist = join(tmp, 'electron-dist');
  mkdirSync(electronDist);
  writeFileSync(join(electronDist, 'electron'), '#!/bin/sh\necho "stand-in for the Electron binary (it cannot be downloaded here)" >&2\nexit 1\n');
  chmodSync(join(electronDist, 'electron'), 0o755);

  const output = join(tmp, 'dist');
  const builder = spawnTracked(
    process.execPath,
    [builderCli, '--linux', 'dir', '--publish', 'never', `-c.electronDist=${electronDist}`, `-c.directories.output=${output}`],
    {
      cwd: repoRoot,
      // No update check against the registry; any cache electron-builder wanted would land in the temporary folder.
      env: { ...process.env, NO_UPDATE_NOTIFIER: '1', ELECTRON_BUILDER_CACHE: join(tmp, 'cache') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  builder.stdout?.on('data', (d: Buffer) => (builderLog += d.toString()));
  builder.stderr?.on('data', (d: Buffer) => (builderLog += d.toString()));
  const [code] = (await once(builder, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`electron-builder exited with ${code}:\n${builderLog}`);

  unpackedDir = join(output, 'linux-unpacked');
  unpacked = filesUnder(unpackedDir);
  const asar = join(unpackedDir, 'resources', 'app.asar');
  extracted = join(tmp, 'app');
  extractAll(asar, extracted);
  app = filesUnder(extracted);
  // listPackage also names folders; every file of the archive must have come out.
  expect(listPackage(asar, { isPack: false }).length).toBeGreaterThanOrEqual(app.length);
  console.log(describeBuild(unpacked, app));
}, 120_000);

describe('the packaged app (electron-builder, Linux unpacked directory)', () => {
  it('is the stand-in Electron renamed to starlane, with the app in resources/app.asar, and downloads nothing', () => {
    expect(unpacked).toEqual(expect.arrayContaining(['starlane', 'resources/app.asar']));
    expect(readFileSync(join(unpackedDir, 'starlane'), 'utf8')).toMatch(/stand-in for the Electron binary/);
    expect(builderLog).not.toMatch(/downloading/i);
  });

  it('ships the built app, package.json and the 1024×1024 icon', () => {
    for (const entry of ['index', 'server', 'bot', 'web']) expect(app).toContain(`out/main/${entry}.js`);
    expect(app).toContain('out/preload/index.cjs');
    expect(app).toContain('out/renderer/index.html');
    expect(app).toContain('package.json');
    // The application icon electron-builder makes every platform's icons from: a PNG of 1024×1024.
    const icon = readFileSync(join(extracted, 'resources', 'icon.png'));
    expect(icon.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([icon.readUInt32BE(16), icon.readUInt32BE(20)]).toEqual([1024, 1024]);
  });

  it('ships exactly the production dependencies: commander, pino, ws, the Agones SDK and what they need, nothing only development needs', () => {
    const shipped = [...new Set(app.map(packageOf).filter((n): n is string => n !== null))].sort();
    expect(shipped).toEqual(expect.arrayContaining(Object.keys(pkg.dependencies)));
    expect(shipped).toEqual(productionPackages());
    // A devDependency that a production dependency needs too ships (protobufjs, under the Agones SDK's gRPC, depends on @types/node).
    for (const dev of Object.keys(pkg.devDependencies)) if (lock.packages[`node_modules/${dev}`]?.dev === true) expect(shipped).not.toContain(dev);
  });

  it('ships no sources, tests or project files', () => {
    const own = app.filter((f) => !packageOf(f));
    expect(own.filter((f) => !/^(out|resources)\//.test(f) && f !== 'package.json')).toEqual([]);
    expect(own.filter((f) => /\.(ts|tsx|map)$/.test(f))).toEqual([]);
    expect(app.filter((f) => /^(src|test|bench|docs|scripts)\//.test(f))).toEqual([]);
  });

  it('runs: the shipped server bundle answers --help on its own dependencies', () => {
    const server = join(extracted, 'out', 'main', 'server.js');
    // Outside the checkout, so commander, pino and ws can only come from the shipped node_modules.
    expect(relative(repoRoot, server).startsWith('..')).toBe(true);
    const r = spawnSync(process.execPath, [server, '--help'], { cwd: extracted, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: starlane-server/);
    for (const command of ['masterserver', 'slotserver', 'gameserver', 'netgame']) expect(r.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
  });
});
