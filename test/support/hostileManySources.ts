/**
 * A UDP flood from thousands of source ports: `sockets` dgram sockets (on
 * 127.0.0.10-127.0.0.209, as many as the process can open) fire `datagrams`
 * forged game datagrams (random tokens) and garbage, round-robin, as fast as
 * they go, at a gameserver where honest players are playing. The attacker is
 * a process of its own (FLOOD_WORKER, plain node:dgram), so its loop never
 * delays the honest players' sends, which stay in this process. The server's
 * shared strangers' budget (--stranger-rate) should make each flood datagram
 * cost a counter while the players' datagrams are served first.
 *
 * What the figures mean depends on what the kernel dropped before the server
 * read anything: the drops column of /proc/net/udp for the server's socket,
 * and RcvbufErrors of /proc/net/snmp (every UDP socket on the machine), are
 * read before and after and printed with the rest.
 * Used by `npm run bench:hostile -- --many-sources`.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { encodePacket } from '../../src/shared/wire/codec';
import { PacketType } from '../../src/shared/wire/types';
import { shipAt } from './gameClient';
import { HonestPlayers, rateOf } from './honestPlayers';
import { kernelDrops } from './hostileScenario';
import type { ServerProcess } from './serverProcess';
import { spawnTracked } from './testRun';
import { waitFor } from './waitFor';

/** Honest players keep at least this share of their state rate during the flood (bench target). */
export const MANY_SOURCES_TARGET = 0.8;

export interface ManySourcesOptions {
  /** Source sockets to open (default 5000). */
  sockets?: number;
  /** Datagrams to send in all (default 200,000). */
  datagrams?: number;
  /** Honest players (default 2). */
  players?: number;
}

export interface ManySourcesResult {
  sockets: number;
  /** Why fewer sockets than asked were opened, if so. */
  socketError?: string;
  sent: number;
  sendErrors: number;
  seconds: number;
  /** Honest states per second (all players, all pairs) before and during the flood. */
  honest: { before: number; during: number; worstShare: number; sentBefore: number; sentDuring: number };
  /** Datagrams the kernel dropped at the server's socket, and RcvbufErrors machine-wide, during the flood. */
  kernel: { socket: number; rcvbufErrors: number };
  /** Datagrams the gameserver read during the flood, and its drops by reason. */
  packetsIn: number;
  drops: Record<string, number>;
  players: number;
}

const status = async (game: ServerProcess) => (await (await fetch(`http://127.0.0.1:${game.http}/status.json`, { signal: AbortSignal.timeout(5000) })).json()) as { drops: Record<string, number>; packetsIn: number; players: unknown[] };

/** RcvbufErrors of the Udp line of /proc/net/snmp (0 where there is none). */
export function rcvbufErrors(): number {
  try {
    const lines = readFileSync('/proc/net/snmp', 'utf8').split('\n').filter((l) => l.startsWith('Udp:'));
    const names = (lines[0] ?? '').split(/\s+/);
    const values = (lines[1] ?? '').split(/\s+/);
    return Number(values[names.indexOf('RcvbufErrors')] ?? 0) || 0;
  } catch {
    return 0;
  }
}

/**
 * The attacker process (CommonJS, run with `node -e`): opens up to SOCKETS sockets (stops at the first that
 * fails), says `ready`, waits for a line on stdin, fires TOTAL datagrams at PORT round-robin in batches of 2,000
 * per turn of its event loop, and says `done` with what it sent. Payloads come base64 in STARLANE_FLOOD_PAYLOADS.
 */
const FLOOD_WORKER = `
const dgram = require('node:dgram');
const [port, want, total] = process.argv.slice(1).map(Number);
const payloads = process.env.STARLANE_FLOOD_PAYLOADS.split(',').map((b) => Buffer.from(b, 'base64'));
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
(async () => {
  const sockets = [];
  let error;
  try {
    for (let i = 0; i < want; i++) {
      const s = dgram.createSocket('udp4');
      await new Promise((resolve, reject) => {
        s.once('error', reject);
        s.bind(0, '127.0.0.' + (10 + (i % 200)), () => (s.off('error', reject), s.on('error', () => undefined), resolve()));
      });
      sockets.push(s);
    }
  } catch (err) {
    error = err.message;
  }
  out({ t: 'ready', sockets: sockets.length, error });
  await new Promise((resolve) => process.stdin.once('data', resolve));
  let sent = 0;
  let errors = 0;
  const onSent = (err) => void (err && (errors += 1));
  const t0 = performance.now();
  while (sent < total && sockets.length > 0) {
    const end = Math.min(total, sent + 2000);
    for (; sent < end; sent++) sockets[sent % sockets.length].send(payloads[sent % payloads.length], port, '127.0.0.1', onSent);
    await new Promise((r) => setImmediate(r));
  }
  const seconds = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 100));
  out({ t: 'done', sent, errors, seconds });
  process.exit(0);
})();
`;

interface WorkerLine {
  t: 'ready' | 'done';
  sockets?: number;
  error?: string;
  sent?: number;
  errors?: number;
  seconds?: number;
}

/** Starts the attacker process; `next()` resolves with its next JSON line. */
function startWorker(port: number, sockets: number, total: number, bytes: Uint8Array[]) {
  const child = spawnTracked(process.execPath, ['-e', FLOOD_WORKER, String(port), String(sockets), String(total)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, STARLANE_FLOOD_PAYLOADS: bytes.map((b) => Buffer.from(b).toString('base64')).join(',') },
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const queue: WorkerLine[] = [];
  let wake: (() => void) | undefined;
  lines.on('line', (l) => {
    try {
      queue.push(JSON.parse(l) as WorkerLine);
    } catch {
      return;
    }
    wake?.();
  });
  const exited = new Promise<void>((r) => child.once('exit', () => (r(), wake?.())));
  let gone = false;
  void exited.then(() => (gone = true));
  return {
    child,
    async next(): Promise<WorkerLine> {
      while (queue.length === 0) {
        if (gone) throw new Error('the flood process exited early');
        await new Promise<void>((r) => (wake = r));
      }
      return queue.shift() as WorkerLine;
    },
    go: () => child.stdin?.write('go\n'),
    stop: () => (child.exitCode === null && child.signalCode === null ? child.kill('SIGKILL') : undefined),
  };
}

/** 256 payloads: forged GameStates with random tokens (decoded and refused if they get that far) and garbage. */
function payloads(): Uint8Array[] {
  return Array.from({ length: 256 }, (_, i) =>
    i % 4 === 3
      ? randomBytes(1 + (i % 200))
      : encodePacket({ header: { type: PacketType.GameState, senderSlot: i % 16, messageId: i, gameTime: 0, joined: true, state: shipAt({ x: 0, y: 0, z: 0 }), token: randomBytes(4).readUInt32BE(0) }, events: [] }),
  );
}

/** Runs the flood against `game`; its players and the attacker process are gone when it returns. */
export async function runManySources(game: ServerProcess, o: ManySourcesOptions = {}): Promise<ManySourcesResult> {
  const total = o.datagrams ?? 200_000;
  const n = o.players ?? 2;
  const port = game.udp as number;
  const players = await HonestPlayers.join(game.tcp, n);
  const worker = startWorker(port, o.sockets ?? 5000, total, payloads());
  try {
    const ready = await worker.next();
    if (!ready.sockets) throw new Error(`could not open a single source socket: ${ready.error}`);
    const before = await players.window(() => players.more(0, 1, 40));
    const s0 = await status(game);
    const k0 = { socket: kernelDrops(port), rcvbuf: rcvbufErrors() };
    let done: WorkerLine = { t: 'done' };
    const during = await players.window(async () => {
      worker.go();
      done = await worker.next();
    });
    // The server may still be reading its backlog: wait until every datagram is read or lost in the kernel (or give up and report).
    const accounted = async () => (await status(game)).packetsIn - s0.packetsIn + kernelDrops(port) - k0.socket >= (done.sent ?? 0);
    await waitFor('the gameserver to read the flood', accounted, 10_000).catch(() => undefined);
    const kernel = { socket: kernelDrops(port) - k0.socket, rcvbufErrors: rcvbufErrors() - k0.rcvbuf };
    const s1 = await status(game);
    const drops: Record<string, number> = {};
    for (const [k, v] of Object.entries(s1.drops)) if (v !== (s0.drops[k] ?? 0)) drops[k] = v - (s0.drops[k] ?? 0);
    const pairs: [number, number][] = [];
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) pairs.push([i, j]);
    const sum = (w: typeof before) => pairs.reduce((a, [i, j]) => a + rateOf(w, i, j), 0);
    const sentRate = (w: typeof before) => w.sent.reduce((a, b) => a + b, 0) / w.seconds;
    return {
      sockets: ready.sockets,
      socketError: ready.error,
      sent: done.sent ?? 0,
      sendErrors: done.errors ?? 0,
      seconds: done.seconds ?? during.seconds,
      honest: {
        before: sum(before),
        during: sum(during),
        worstShare: Math.min(...pairs.map(([i, j]) => rateOf(during, i, j) / rateOf(before, i, j))),
        sentBefore: sentRate(before),
        sentDuring: sentRate(during),
      },
      kernel,
      packetsIn: s1.packetsIn - s0.packetsIn,
      drops,
      players: s1.players.length,
    };
  } finally {
    worker.stop();
    players.close();
  }
}

/** The flood's figures against the target. */
export function describeManySources(r: ManySourcesResult): string {
  const share = (k: number) => `${((100 * k) / Math.max(1, r.sent)).toFixed(1)}%`;
  return [
    `many-source flood: ${r.sent.toLocaleString('en-US')} datagrams from ${r.sockets} source sockets${r.socketError ? ` (stopped opening more: ${r.socketError})` : ''} in ${r.seconds.toFixed(1)} s (${Math.round(r.sent / r.seconds).toLocaleString('en-US')}/s), ${r.sendErrors} send errors`,
    `  honest states ${r.honest.before.toFixed(1)} → ${r.honest.during.toFixed(1)}/s over all players (worst pair ${Math.round(100 * r.honest.worstShare)}%; they sent ${r.honest.sentBefore.toFixed(1)} → ${r.honest.sentDuring.toFixed(1)}/s); target ≥${Math.round(MANY_SOURCES_TARGET * 100)}%: ${r.honest.worstShare >= MANY_SOURCES_TARGET ? 'met' : 'MISSED'}`,
    `  kernel dropped ${r.kernel.socket.toLocaleString('en-US')} at the server's socket (${share(r.kernel.socket)} of the flood; RcvbufErrors machine-wide +${r.kernel.rcvbufErrors.toLocaleString('en-US')}); the server read ${r.packetsIn.toLocaleString('en-US')} datagrams (its players' included)`,
    `  gameserver drops during the flood: ${JSON.stringify(r.drops)}; ${r.players} players seated after it`,
  ].join('\n');
}
