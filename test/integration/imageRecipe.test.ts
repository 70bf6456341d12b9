/**
 * The container image's recipe, followed without Docker: the Dockerfile's
 * runtime stage is read (test/support/dockerfile.ts) and its COPY and RUN
 * lines carried out into an empty temporary folder standing for its WORKDIR
 * — files from the build stage taken from this checkout's build, the
 * production dependencies installed by the stage's own `npm ci --omit=dev`
 * (from the npm cache where it can). Then the servers run from there with
 * the image's ENTRYPOINT, CMD and ENV, so they can only use what the image
 * would hold: every kind answers --help, and a gameserver started as the
 * image starts one takes a bot and talks to an Agones sidecar (a stand-in)
 * over the gRPC its production dependencies bring.
 * Needs `npx electron-vite build` first; the npm registry or cache must hold the dependencies.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOf, execForm, stages, type Stage } from '../support/dockerfile';
import { repoRoot, botEntry, serverEntry } from '../support/paths';
import { spawnTracked, tempDir } from '../support/testRun';
import { AgonesSidecar } from '../support/agonesSidecar';
import { botsJoined, serverBot, stopBots } from '../support/botProcess';
import { waitFor } from '../support/waitFor';
import { GAMESERVER_PORT, GAMESERVER_UDP_PORT, NETGAME_PORT, NETGAME_UDP_PORT, SLOTSERVER_PORT, SLOTSERVER_UDP_PORT } from '../../src/shared/servers/joinProtocol';
import { DEFAULT_MASTER_PORT } from '../../src/shared/servers/masterProtocol';

const KINDS = ['masterserver', 'slotserver', 'gameserver', 'netgame'] as const;

/** What following the runtime stage made: the folder, and the image's environment, user, ports, entrypoint and command. */
interface Image {
  root: string;
  env: Record<string, string>;
  user: string | null;
  expose: string[];
  entrypoint: string[];
  cmd: string[];
  healthcheck: boolean;
  /** How long the stage's `npm ci --omit=dev` took (ms). */
  installMs: number;
}

/** The WORKDIR a stage sets (its only one: the recipe test follows stages with one). */
function workdirOf(stage: Stage): string {
  const dirs = stage.instructions.filter((i) => i.op === 'WORKDIR').map((i) => i.args);
  if (dirs.length !== 1 || !dirs[0]?.startsWith('/')) throw new Error(`stage ${stage.name}: the recipe test follows one absolute WORKDIR, found ${JSON.stringify(dirs)}`);
  return dirs[0];
}

/** `npm`'s command line: the npm running this test if there is one, else the one on the PATH. */
function npm(args: string[]): { command: string; args: string[] } {
  const cli = process.env.npm_execpath;
  return cli && cli.endsWith('.js') ? { command: process.execPath, args: [cli, ...args] } : { command: 'npm', args };
}

/** Carries out the runtime stage of the Dockerfile into a fresh folder. */
function followRecipe(): Image {
  const all = stages(readFileSync(join(repoRoot, 'Dockerfile'), 'utf8'));
  const build = all.find((s) => s.name === 'build');
  const runtime = all[all.length - 1];
  if (!build || !runtime || runtime === build) throw new Error('Dockerfile: expected a build stage and a runtime stage after it');
  // The build stage copies the whole context to its WORKDIR and builds there: its files are this checkout's after a build.
  expect(build.instructions.some((i) => i.op === 'COPY' && i.args === '. .')).toBe(true);
  expect(build.instructions.some((i) => i.op === 'RUN' && /\bnpx electron-vite build\b/.test(i.args))).toBe(true);
  const buildDir = workdirOf(build);
  const appDir = workdirOf(runtime);
  const root = tempDir('image');
  const image: Image = { root, env: {}, user: null, expose: [], entrypoint: [], cmd: [], healthcheck: false, installMs: 0 };
  const inApp = (dest: string) => {
    const abs = dest.startsWith('/') ? dest : `${appDir}/${dest}`;
    if (abs !== appDir && !abs.startsWith(`${appDir}/`)) throw new Error(`COPY to ${dest}: outside the WORKDIR, which the recipe test does not follow`);
    return join(root, abs.slice(appDir.length));
  };
  for (const ins of runtime.instructions) {
    switch (ins.op) {
      case 'WORKDIR':
        break;
      case 'ENV':
        for (const m of ins.args.matchAll(/(\w+)=(\S*)/g)) image.env[m[1] as string] = m[2] as string;
        break;
      case 'COPY': {
        const c = copyOf(ins.args);
        if (c.from !== null && c.from !== 'build') throw new Error(`COPY --from=${c.from}: not the build stage`);
        for (const src of c.sources) {
          let from: string;
          if (c.from === null) from = join(repoRoot, src);
          else if (src.startsWith(`${buildDir}/`)) from = join(repoRoot, src.slice(buildDir.length + 1));
          else throw new Error(`COPY --from=build ${src}: outside the build stage's WORKDIR`);
          if (!existsSync(from)) throw new Error(`COPY ${src}: ${relative(repoRoot, from)} does not exist (build first)`);
          const dest = inApp(c.dest);
          const target = c.dest.endsWith('/') && !statSync(from).isDirectory() ? join(dest, src.split('/').pop() as string) : dest;
          mkdirSync(dirname(target), { recursive: true });
          cpSync(from, target, { recursive: true });
        }
        break;
      }
      case 'RUN':
        for (const step of ins.args.split('&&').map((s) => s.trim())) {
          if (/^npm ci\b/.test(step)) {
            const started = Date.now();
            // The stage's own install, from the npm cache where it can be.
            const n = npm([...step.split(/\s+/).slice(1), '--prefer-offline']);
            const r = spawnSync(n.command, n.args, { cwd: root, encoding: 'utf8', env: { ...process.env, ...image.env } });
            if (r.status !== 0) throw new Error(`${step} failed (${r.status}):\n${r.stderr}`);
            image.installMs = Date.now() - started;
          } else if (/^npm cache clean\b/.test(step) || /^mkdir -p \/data$/.test(step) || /^chown node:node \/data$/.test(step)) {
            // The image's own housekeeping: emptying this machine's shared npm cache, or a root-owned folder outside the app, proves nothing here.
          } else {
            throw new Error(`RUN step "${step}": not one the recipe test follows; teach it, or keep the runtime stage to npm ci`);
          }
        }
        break;
      case 'USER':
        image.user = ins.args;
        break;
      case 'EXPOSE':
        image.expose.push(...ins.args.split(/\s+/));
        break;
      case 'HEALTHCHECK':
        image.healthcheck = true;
        break;
      case 'ENTRYPOINT':
        image.entrypoint = execForm(ins.args) ?? [];
        break;
      case 'CMD':
        image.cmd = execForm(ins.args) ?? [];
        break;
      default:
        throw new Error(`runtime stage: ${ins.op} is not an instruction the recipe test follows`);
    }
  }
  return image;
}

/** Every file under `dir` but node_modules, relative, with forward slashes. */
function ownFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.name === 'node_modules' && dir === base) return [];
    return e.isDirectory() ? ownFiles(p, base) : [relative(base, p).split('\\').join('/')];
  });
}

/** The test's environment without NODE_PATH or server variables of its own: what the image's processes see, plus its ENV. */
function imageEnv(image: Image, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_PATH' && !/^STARLANE_(?!TEST_)/.test(k)));
  return { ...base, ...image.env, ...extra };
}

/** The entrypoint's node and its arguments, with `args` after them. */
function entry(image: Image, args: string[]): { command: string; args: string[] } {
  const [node, ...rest] = image.entrypoint;
  expect(node).toBe('node');
  return { command: process.execPath, args: [...rest, ...args] };
}

let image: Image;
const sidecars: AgonesSidecar[] = [];
beforeAll(() => {
  if (!existsSync(serverEntry) || !existsSync(botEntry)) throw new Error('out/main is missing: run "npx electron-vite build" first');
  image = followRecipe();
  process.stdout.write(`image recipe: npm ci --omit=dev took ${image.installMs} ms\n`);
}, 120_000);
afterAll(async () => {
  await Promise.all(sidecars.splice(0).map((s) => s.close()));
});

describe('the container image recipe', () => {
  it('holds only the server bundle, the chunks it imports and the production dependencies, and runs as the node user', () => {
    const files = ownFiles(image.root).sort();
    expect(files.filter((f) => !f.startsWith('out/main/chunks/'))).toEqual(['out/main/server.js', 'package-lock.json', 'package.json']);
    // Whatever server.js imports of its own is in the image.
    for (const m of readFileSync(join(image.root, 'out/main/server.js'), 'utf8').matchAll(/from "\.\/(chunks\/[^"]+)"/g)) expect(files).toContain(`out/main/${m[1]}`);
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    for (const dep of Object.keys(pkg.dependencies)) expect(existsSync(join(image.root, 'node_modules', dep, 'package.json'))).toBe(true);
    for (const dev of ['electron', 'electron-vite', 'vite', 'vitest', 'typescript', 'three']) expect(existsSync(join(image.root, 'node_modules', dev))).toBe(false);
    expect(image.user).toBe('node');
    expect(image.healthcheck).toBe(true);
    expect(image.entrypoint.slice(-1)).toEqual(['out/main/server.js']);
    expect(image.cmd[0]).toBe('gameserver');
    const ports = [`${GAMESERVER_PORT}/tcp`, `${GAMESERVER_UDP_PORT}/udp`, `${SLOTSERVER_PORT}/tcp`, `${SLOTSERVER_UDP_PORT}/udp`, `${NETGAME_PORT}/tcp`, `${NETGAME_UDP_PORT}/udp`, `${DEFAULT_MASTER_PORT}/tcp`, `${image.env.STARLANE_HTTP_PORT}/tcp`];
    expect([...image.expose].sort()).toEqual(ports.sort());
  });

  it('sends the build what it needs: .dockerignore keeps the sources, configs and lock file in the context', () => {
    const ignored = readFileSync(join(repoRoot, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
    for (const needed of ['src', 'resources', 'package.json', 'package-lock.json', 'electron.vite.config.ts', 'tsconfig.json', 'tsconfig.node.json', 'tsconfig.web.json', 'tsconfig.base.json']) expect(ignored).not.toContain(needed);
    for (const kept of ['node_modules', 'out', '.git']) expect(ignored).toContain(kept);
  });

  it('every server kind answers --help from the image alone', async () => {
    await Promise.all(
      KINDS.map(async (kind) => {
        const e = entry(image, [kind, '--help']);
        const child = spawnTracked(e.command, e.args, { cwd: image.root, env: imageEnv(image), stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
        const code = await new Promise<number | null>((r) => child.once('close', (c) => r(c)));
        expect({ kind, code, err }).toEqual({ kind, code: 0, err: '' });
        expect(out).toMatch(new RegExp(`^Usage: starlane-server ${kind} `));
      }),
    );
  });

  it('a gameserver started as the image starts one takes a bot, and its --agones reaches a sidecar over the image\'s own gRPC', async () => {
    const sidecar = await AgonesSidecar.start();
    sidecars.push(sidecar);
    const e = entry(image, [...image.cmd, '--host', '127.0.0.1', '--port', '0', '--udp-port', '0', '--http-port', '0', '--agones', '--agones-health-seconds', '0.5', '--log-level', 'warn']);
    const child = spawnTracked(e.command, e.args, { cwd: image.root, env: imageEnv(image, { AGONES_SDK_GRPC_PORT: String(sidecar.port) }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    const m = await waitFor('the image\'s gameserver listening', () => /^gameserver ".*" listening on tcp (\d+), udp (\d+), http (\d+)$/m.exec(out), 15_000);
    const [tcp, http] = [Number(m[1]), Number(m[3])];
    await sidecar.until('Ready', () => sidecar.count('Ready') === 1);
    const bot = serverBot('gameserver', 'imagebot', `127.0.0.1:${tcp}`, 7);
    await botsJoined([bot]);
    await waitFor('the bot on the status page', async () => ((await (await fetch(`http://127.0.0.1:${http}/status.json`)).json()) as { players: { name: string }[] }).players.some((p) => p.name === 'imagebot'));
    await sidecar.until('the bot counted by the sidecar', () => sidecar.players.has('imagebot'));
    await stopBots([bot]);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(sidecar.count('Shutdown')).toBe(1);
  });
});
