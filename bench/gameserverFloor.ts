/**
 * The floor `npm run bench:gameserver -- --baseline` measures beside the
 * gameserver: a bare UDP relay process that does only what costs the
 * gameserver its datagrams, nothing it decides. It reads each client's
 * 55-byte datagram (a stand-in for a state), gathers for --gather-ms after
 * the first arrival as the gameserver does (0: relays each burst read), then
 * sends each client the others' datagrams packed into datagrams of at most
 * MAX_RELAY_BYTES. No decoding, no rules, no interest filter: its CPU and its
 * forward latency are what this machine's Node and loopback put under any
 * relay of that load.
 */
import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { procCpuSeconds } from './procCpu';
import { MAX_RELAY_BYTES } from '../src/shared/wire/types';

const SEND_HZ = 20;
const STAMP_BYTES = 55;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** The relay (run with `node -e`): learns peers by source port; argv: gather ms, largest datagram. */
const RELAY = `const s = require('node:dgram').createSocket('udp4');
const gather = Number(process.argv[1]), most = Number(process.argv[2]);
const peers = new Map(); const got = []; let timer = null;
function flush() {
  timer = null;
  for (const [port, address] of peers) {
    let out = Buffer.allocUnsafe(most), used = 0;
    for (const g of got) {
      if (g.port === port) continue;
      if (used + g.msg.length > most) { s.send(out.subarray(0, used), port, address); out = Buffer.allocUnsafe(most); used = 0; }
      g.msg.copy(out, used); used += g.msg.length;
    }
    if (used > 0) s.send(out.subarray(0, used), port, address);
  }
  got.length = 0;
}
s.on('message', (msg, r) => {
  peers.set(r.port, r.address); got.push({ port: r.port, msg });
  if (timer === null) timer = gather > 0 ? setTimeout(flush, gather) : setImmediate(flush);
});
s.bind(0, '127.0.0.1', () => console.log(s.address().port));`;

/** What the bare relay did for `bots` senders at 20 Hz: its CPU (% of a core) and the forward latency (ms). */
export interface Floor {
  cpuPercent: number;
  p50: number;
  p99: number;
  max: number;
}

/** The bare relay's CPU and forward latency for `bots` senders (in this process) at 20 Hz, each datagram stamped with its send time. */
export async function baseline(
  bots: number,
  seconds: number,
  warmup: number,
  gatherMs: number,
  /** How the relay's command is run (the bench pins it to the gameserver's core with taskset). */
  wrap: (command: string, args: string[]) => [string, string[]] = (command, args) => [command, args],
): Promise<Floor> {
  const [command, args] = wrap(process.execPath, ['--max-semi-space-size=1', '-e', RELAY, String(gatherMs), String(MAX_RELAY_BYTES)]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout?.once('data', (d: Buffer) => resolve(Number(d.toString()))));
  const latencies: number[] = [];
  let measuring = false;
  const sockets: dgram.Socket[] = [];
  const timers: NodeJS.Timeout[] = [];
  try {
    for (let i = 0; i < bots; i++) {
      const sock = dgram.createSocket('udp4');
      await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
      sock.on('message', (m) => {
        const at = performance.now();
        if (!measuring) return;
        for (let k = 0; k + STAMP_BYTES <= m.length; k += STAMP_BYTES) latencies.push(at - m.readDoubleBE(k));
      });
      sockets.push(sock);
    }
    const stamp = (sock: dgram.Socket) => {
      const b = Buffer.alloc(STAMP_BYTES);
      b.writeDoubleBE(performance.now(), 0);
      sock.send(b, port, '127.0.0.1');
    };
    for (const sock of sockets) stamp(sock);
    await sleep(300);
    sockets.forEach((sock, i) => timers.push(setTimeout(() => timers.push(setInterval(() => stamp(sock), 1000 / SEND_HZ)), (i * 1000) / SEND_HZ / bots)));
    await sleep(warmup * 1000);
    const cpu0 = procCpuSeconds(child.pid);
    const t0 = performance.now();
    measuring = true;
    await sleep(seconds * 1000);
    measuring = false;
    const cpuPercent = ((procCpuSeconds(child.pid) - cpu0) / ((performance.now() - t0) / 1000)) * 100;
    const sorted = Float64Array.from(latencies).sort();
    return { cpuPercent, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
  } finally {
    for (const t of timers) clearInterval(t);
    await sleep(100);
    for (const sock of sockets) sock.close();
    child.kill();
  }
}
