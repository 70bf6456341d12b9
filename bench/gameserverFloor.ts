/**
 * The floor `npm run bench:gameserver -- --baseline` measures beside the
 * gameserver: a bare UDP forwarder process (no decoding, no rules, no
 * interest filter) that sends each datagram on to every other peer, with the
 * same number of 20 Hz senders of 55-byte datagrams. Its forward latency is
 * what this machine's loopback and scheduler cost before any server work.
 */
import { spawn } from 'node:child_process';
import dgram from 'node:dgram';

const SEND_HZ = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** The bare forwarder: learns peers by source port, sends each datagram on to all the others at once. */
const FORWARDER = `const s = require('node:dgram').createSocket('udp4'); const peers = new Map();
s.on('message', (m, r) => { peers.set(r.port, r.address); for (const [p, a] of peers) if (p !== r.port) s.send(m, p, a); });
s.bind(0, '127.0.0.1', () => console.log(s.address().port));`;

/** Forward latency through the bare forwarder for `bots` senders (in this process) at 20 Hz (55-byte datagrams stamped with the send time). */
export async function baseline(
  bots: number,
  seconds: number,
  warmup: number,
  /** How the forwarder's command is run (the bench pins it to the gameserver's core with taskset). */
  wrap: (command: string, args: string[]) => [string, string[]] = (command, args) => [command, args],
): Promise<{ p50: number; p99: number; max: number }> {
  const [command, args] = wrap(process.execPath, ['-e', FORWARDER]);
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
        if (measuring) latencies.push(at - m.readDoubleBE(0));
      });
      sockets.push(sock);
    }
    const stamp = (sock: dgram.Socket) => {
      const b = Buffer.alloc(55);
      b.writeDoubleBE(performance.now(), 0);
      sock.send(b, port, '127.0.0.1');
    };
    for (const sock of sockets) stamp(sock);
    await sleep(300);
    sockets.forEach((sock, i) => timers.push(setTimeout(() => timers.push(setInterval(() => stamp(sock), 1000 / SEND_HZ)), (i * 1000) / SEND_HZ / bots)));
    await sleep(warmup * 1000);
    measuring = true;
    await sleep(seconds * 1000);
  } finally {
    for (const t of timers) clearInterval(t);
    await sleep(100);
    for (const sock of sockets) sock.close();
    child.kill();
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? NaN };
}

