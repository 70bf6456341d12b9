/**
 * LAN discovery paths of the real packet APIs on a 3-host virtual LAN made of
 * network namespaces (test/support/netns.ts): IPv4 subnet broadcast (`udp`)
 * and the Starlane link-local multicast group (`udp6`). Every probe runs
 * inside a namespace, so no test packet can reach a real interface.
 * Needs root; without it the suite fails with the reason instead of skipping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DEFAULT_CLIENT_PORT } from '../../src/shared/net/packetApi';
import { cleanupStaleLans, createLan, lanAvailable, listNamespaces, type Lan, type LanHost } from '../support/netns';

const repoRoot = join(import.meta.dirname, '..', '..');
const probeScript = join(repoRoot, 'test', 'support', 'lanProbe.ts');
/** `node --import tsx` rather than `npx tsx`: one process (SIGTERM reaches the probe itself) and no npx start-up. */
const probeCommand = (args: string[]): [string, string[]] => [process.execPath, ['--import', 'tsx', probeScript, ...args]];
/** Upper bound a listener lives even if a test forgets it (the LAN's destroy kills it anyway). */
const LISTENER_SECONDS = 25;
const PORT = DEFAULT_CLIENT_PORT;
/** Outside PORT's fallback range, so "different port" cannot end up on PORT by fallback. */
const OTHER_PORT = DEFAULT_CLIENT_PORT + 100;

type Family = 'udp' | 'udp6';
interface Received {
  from: string;
  text: string;
}

interface Listener {
  port: number;
  received: Received[];
  /** Resolves once `count` datagrams arrived, or after `ms` regardless. */
  settle(count: number, ms: number): Promise<void>;
  /** SIGTERM, waits for a clean exit, returns everything received. */
  stop(): Promise<Received[]>;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Starts a probe listener in `host` and waits until its socket is bound. */
async function listen(lan: Lan, host: LanHost, family: Family, port: number): Promise<Listener> {
  const [cmd, args] = probeCommand(['listen', family, String(port), String(LISTENER_SECONDS)]);
  const child = lan.spawn(host, cmd, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const ready = new Promise<{ port: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${family} listener in ${host.name} not ready in 15 s\n${stderr}`)), 15_000);
    child.once('exit', (code) => reject(new Error(`${family} listener in ${host.name} exited (${code}) before ready\n${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const msg = JSON.parse(line) as { ready?: boolean; port: number; error?: string } & Received;
      if (msg.error) reject(new Error(`${family} listener in ${host.name}: ${msg.error}`));
      else if (msg.ready) {
        clearTimeout(timer);
        resolve(msg);
      } else {
        received.push({ from: msg.from, text: msg.text });
        for (const wake of waiters) wake();
      }
    });
  });
  const bound = await ready;
  return {
    port: bound.port,
    received,
    settle: (count, ms) =>
      new Promise<void>((resolve) => {
        const done = (): void => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(done);
          resolve();
        }, ms);
        waiters.add(done);
        done();
      }),
    async stop() {
      child.kill('SIGTERM');
      const code = await exited(child);
      expect(code, `${family} listener in ${host.name} exit code\n${stderr}`).toBe(0);
      return [...received];
    },
  };
}

/** Runs a probe broadcast from `host`; returns the sender's bound port. */
async function broadcastFrom(lan: Lan, host: LanHost, family: Family, port: number, text: string): Promise<number> {
  const extra = family === 'udp' ? [host.broadcast] : [];
  const [cmd, args] = probeCommand(['broadcast', family, String(port), text, ...extra]);
  const { stdout } = await lan.exec(host, cmd, args, { cwd: repoRoot, timeoutMs: 15_000 });
  const summary = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { sent?: number; port?: number; stats?: { packetsOut: number } };
  expect(summary.sent, stdout).toBe(3);
  expect(summary.stats?.packetsOut, stdout).toBe(3);
  return summary.port!;
}

/** Interface names in the root namespace (`N: name[@peer]: …`). */
function hostLinks(): string[] {
  const out = execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' });
  return out.split('\n').flatMap((l) => /^\d+: ([^:@\s]+)/.exec(l)?.[1] ?? []).sort();
}

/** The sender address a receiver must report for a datagram from `host`'s port `port`. */
const senderOf = (family: Family, host: LanHost, port: number): string =>
  family === 'udp' ? `${host.ipv4}:${port}` : `[${host.ipv6LinkLocal}%eth0]:${port}`;

const uniqueText = (label: string): string => `${label}-${Math.random().toString(36).slice(2, 10)}`;

describe('packet APIs on a virtual LAN (network namespaces)', () => {
  let lan: Lan | undefined;
  let linksBefore: string[] = [];

  beforeAll(async () => {
    const reason = await lanAvailable();
    if (reason !== null) throw new Error(`virtual LAN unavailable, cannot test LAN paths: ${reason}`);
    // Leftovers of crashed earlier runs; live LANs of other processes are spared.
    await cleanupStaleLans();
    linksBefore = hostLinks();
    lan = await createLan({ hosts: 3 });
  });

  afterAll(async () => {
    await lan?.destroy();
  });

  const the = (): { lan: Lan; h1: LanHost; h2: LanHost; h3: LanHost } => {
    if (!lan) throw new Error('LAN was not built');
    const [h1, h2, h3] = lan.hosts as [LanHost, LanHost, LanHost];
    return { lan, h1, h2, h3 };
  };

  it('builds the LAN entirely inside namespaces', async () => {
    const { lan, h1 } = the();
    expect(lan.hosts.map((h) => h.ipv4)).toEqual([1, 2, 3].map((i) => `${lan.subnet}.${i}`));
    expect(h1.ipv6LinkLocal).toMatch(/^fe80:/);
    expect(await listNamespaces()).toEqual(expect.arrayContaining(lan.namespaces));
    expect(hostLinks(), 'no interface may appear in the root namespace').toEqual(linksBefore);
  });

  it('udp: h2 and h3 receive h1 broadcasting to the subnet broadcast address, from h1', async () => {
    const { lan, h1, h2, h3 } = the();
    const listeners = await Promise.all([listen(lan, h2, 'udp', PORT), listen(lan, h3, 'udp', PORT)]);
    const text = uniqueText('udp');
    const senderPort = await broadcastFrom(lan, h1, 'udp', PORT, text);
    for (const l of listeners) {
      await l.settle(3, 2000);
      const got = await l.stop();
      expect(l.port).toBe(PORT);
      expect(got.length).toBeGreaterThanOrEqual(1);
      expect(got).toEqual(got.map(() => ({ from: senderOf('udp', h1, senderPort), text })));
    }
  });

  it('udp6: h2 and h3 receive h1 broadcasting to the Starlane multicast group on eth0, from its fe80:: address', async () => {
    const { lan, h1, h2, h3 } = the();
    const listeners = await Promise.all([listen(lan, h2, 'udp6', PORT), listen(lan, h3, 'udp6', PORT)]);
    const text = uniqueText('udp6');
    const senderPort = await broadcastFrom(lan, h1, 'udp6', PORT, text);
    for (const l of listeners) {
      await l.settle(3, 2000);
      const got = await l.stop();
      expect(got.length).toBeGreaterThanOrEqual(1);
      expect(got[0]?.from).toMatch(/^\[fe80::/);
      expect(got).toEqual(got.map(() => ({ from: senderOf('udp6', h1, senderPort), text })));
    }
  });

  it.each(['udp', 'udp6'] as const)('%s: a listener on another port receives nothing', async (family) => {
    const { lan, h1, h2, h3 } = the();
    const [control, other] = await Promise.all([listen(lan, h2, family, PORT), listen(lan, h3, family, OTHER_PORT)]);
    expect(other.port).toBe(OTHER_PORT);
    const text = uniqueText(`${family}-port`);
    await broadcastFrom(lan, h1, family, PORT, text);
    await control.settle(3, 2000);
    // A marker to the other port crosses the same bridge after the broadcast: once h3 has it, the broadcast
    // would have reached h3 too, so the other listener must hold the marker and nothing else.
    const marker = uniqueText(`${family}-marker`);
    await broadcastFrom(lan, h1, family, OTHER_PORT, marker);
    await other.settle(1, 10_000);
    expect(await control.stop(), 'control listener on the broadcast port').not.toEqual([]);
    const got = await other.stop();
    expect(got.length, 'the marker reached the other port').toBeGreaterThanOrEqual(1);
    expect(got.map((r) => r.text)).toEqual(got.map(() => marker));
  });

  it('destroy removes every namespace and leaves the host interfaces as they were', async () => {
    const { lan } = the();
    await lan.destroy();
    const remaining = await listNamespaces();
    expect(remaining.filter((ns) => lan.namespaces.includes(ns))).toEqual([]);
    expect(hostLinks()).toEqual(linksBefore);
    // Idempotent: afterAll calls it again.
    await expect(lan.destroy()).resolves.toBeUndefined();
  });
});
