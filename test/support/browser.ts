import { execFileSync } from 'node:child_process';
import { chmodSync, createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { extract } from 'tar-fs';
import { repoRoot } from './paths';
import { TEST_CHILD_ENV, testRunId } from './testRun';

/**
 * Which browser the end-to-end tests drive, decided here and nowhere else:
 * 1. `CHROMIUM_PATH`, when set (a missing file is an error, not a fallback);
 * 2. a Chromium or Chrome installed on the system (Linux paths, the macOS app
 *    bundles, Windows Program Files / Local AppData);
 * 3. the headless Chromium inside the `@sparticuz/chromium` dev dependency
 *    (Linux x64): npm installs it from the registry like any package, and it is
 *    unpacked once into node_modules/.cache, beside its SwiftShader libraries.
 */
export interface BrowserChoice {
  /** Where it came from, for the line the suite prints. */
  source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
  executablePath: string;
  /** Extra environment for the browser process (bundled libraries and fonts). */
  env: Record<string, string>;
}

/** The one line printed when no browser can be had. */
export const NO_BROWSER =
  'no Chromium or Chrome for the e2e tests: set CHROMIUM_PATH to one, install Chromium or Google Chrome, or run `npm install` on Linux x64 (it brings @sparticuz/chromium)';

function systemCandidates(): string[] {
  const env = process.env;
  switch (process.platform) {
    case 'darwin':
      return [
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        join(env.HOME ?? '', 'Applications/Google Chrome.app/Contents/MacOS/Google Chrome'),
      ];
    case 'win32':
      return [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA]
        .filter((d): d is string => !!d)
        .flatMap((d) => [join(d, 'Google', 'Chrome', 'Application', 'chrome.exe'), join(d, 'Chromium', 'Application', 'chrome.exe')]);
    default:
      return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/opt/google/chrome/chrome'];
  }
}

/** The folder the npm-provided Chromium is unpacked into, per package version. */
function sparticuzCache(version: string): string {
  return join(repoRoot, 'node_modules', '.cache', `starlane-chromium-${version}`);
}

async function unpack(archive: string, target: string, tarball: boolean): Promise<void> {
  const source = createReadStream(archive, { highWaterMark: 1 << 22 });
  await pipeline(source, createBrotliDecompress({ chunkSize: 1 << 21 }), tarball ? extract(target) : createWriteStream(target, { mode: 0o755 }));
}

/** Unpacks @sparticuz/chromium once (atomically: into a scratch folder, then renamed). */
async function npmChromium(): Promise<BrowserChoice | null> {
  if (process.platform !== 'linux' || process.arch !== 'x64') return null;
  const require = createRequire(join(repoRoot, 'package.json'));
  let pkgDir: string;
  try {
    // The package exports only its entry (build/index.js), not package.json.
    pkgDir = join(require.resolve('@sparticuz/chromium'), '..', '..');
  } catch {
    return null;
  }
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  const dir = sparticuzCache(version);
  if (!existsSync(join(dir, 'chromium'))) {
    const scratch = `${dir}.partial-${process.pid}`;
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    const bin = join(pkgDir, 'bin');
    await Promise.all([
      unpack(join(bin, 'chromium.br'), join(scratch, 'chromium'), false),
      unpack(join(bin, 'swiftshader.tar.br'), scratch, true),
      unpack(join(bin, 'fonts.tar.br'), join(scratch, 'fonts'), true),
      unpack(join(bin, 'al2023.tar.br'), join(scratch, 'al2023'), true),
    ]);
    chmodSync(join(scratch, 'chromium'), 0o755);
    // Another worker may have won the race; its copy is as good as ours.
    try {
      renameSync(scratch, dir);
    } catch {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  const env: Record<string, string> = {
    // NSS, NSPR and expat built for this Chromium: a minimal Linux may lack them.
    LD_LIBRARY_PATH: [join(dir, 'al2023', 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
  };
  // A machine without fontconfig's own configuration gets the bundled fonts.
  if (!existsSync('/etc/fonts/fonts.conf')) env.FONTCONFIG_PATH = join(dir, 'fonts');
  return { source: '@sparticuz/chromium', executablePath: join(dir, 'chromium'), env };
}

let chosen: Promise<BrowserChoice> | undefined;

/** Decides once per process which browser to use; rejects with {@link NO_BROWSER} (or a missing CHROMIUM_PATH). */
export function chooseBrowser(): Promise<BrowserChoice> {
  chosen ??= (async () => {
    const override = process.env.CHROMIUM_PATH;
    if (override) {
      if (!existsSync(override)) throw new Error(`CHROMIUM_PATH=${override} does not exist: point it at a Chromium or Chrome binary, or unset it to use the one npm installs`);
      return { source: 'CHROMIUM_PATH', executablePath: override, env: {} } as BrowserChoice;
    }
    const system = systemCandidates().find((p) => existsSync(p));
    if (system) return { source: 'system', executablePath: system, env: {} } as BrowserChoice;
    const bundled = await npmChromium();
    if (bundled) return bundled;
    throw new Error(NO_BROWSER);
  })();
  return chosen;
}

/** The libraries `ldd` output reports as not found. */
export function missingFromLdd(lddOutput: string): string[] {
  return [...lddOutput.matchAll(/^\s*(\S+) => not found/gm)].map((m) => m[1] as string);
}

/** The one line for a browser that cannot start because the system lacks `missing` libraries. */
export function cannotStartLine(choice: Pick<BrowserChoice, 'source' | 'executablePath'>, missing: readonly string[]): string {
  return `${choice.source} Chromium (${choice.executablePath}) cannot start: the system lacks ${missing.join(', ')}; \`apt-get install chromium\` (or your system's Chromium package) brings every library it needs`;
}

/** The libraries the binary needs that the system lacks (Linux, from ldd), for a one-line diagnosis. */
function missingLibraries(choice: BrowserChoice): string[] {
  if (process.platform !== 'linux') return [];
  try {
    return missingFromLdd(execFileSync('ldd', [choice.executablePath], { env: { ...process.env, ...choice.env }, encoding: 'utf8' }));
  } catch {
    return [];
  }
}

/** One line saying which browser the suite uses (printed by the global setup). */
export async function describeBrowser(): Promise<string> {
  const choice = await chooseBrowser();
  const browser = await launchChromium();
  try {
    return `e2e browser: ${choice.source} ${choice.executablePath} (Chromium ${browser.version()})`;
  } finally {
    await browser.close();
  }
}

/**
 * Launches headless Chromium for the end-to-end suites, with WebGL2 through
 * SwiftShader and none of Chromium's background network traffic. The browser
 * carries the test run's mark, so the run's teardown can find it if it outlives
 * its test.
 */
export async function launchChromium(): Promise<Browser> {
  const choice = await chooseBrowser();
  try {
    return await chromium.launch({
      executablePath: choice.executablePath,
      headless: true,
      env: { ...process.env, ...choice.env, [TEST_CHILD_ENV]: testRunId() },
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        '--ignore-gpu-blocklist',
      ],
    });
  } catch (err) {
    const missing = missingLibraries(choice);
    if (missing.length > 0) throw new Error(cannotStartLine(choice, missing), { cause: err });
    throw err;
  }
}
