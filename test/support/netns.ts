/**
 * A throwaway virtual LAN built from Linux network namespaces, so LAN paths
 * (IPv4 broadcast, IPv6 link-local multicast) are tested without a single
 * packet reaching the machine's real interfaces.
 *
 * Layout: `${prefix}-sw` holds a bridge `br0`; each host `${prefix}-hN` has
 * `lo` and `eth0`, the namespace end of a veth pair whose other end (`hN`) is
 * a port of `br0`. Both veth ends are created directly inside namespaces, so
 * no interface ever appears in the root namespace, not even for a moment.
 * Needs root (CAP_SYS_ADMIN + CAP_NET_ADMIN) and iproute2's `ip`.
 */
import { execFile, execFileSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { spawnTracked } from './testRun';

const execFileAsync = promisify(execFile);

/** Prefix of every namespace `createLan` names by default, and the default of {@link cleanupStaleLans}. */
export const LAN_PREFIX = 'sl';

/** One host of a {@link Lan}; `name` is its namespace. */
export interface LanHost {
  name: string;
  /** Address of eth0 inside its /24. */
  ipv4: string;
  /** Directed broadcast address of that /24. */
  broadcast: string;
  /** eth0's fe80:: address, no scope suffix; already out of DAD. */
  ipv6LinkLocal: string;
}

/** Result of {@link Lan.exec}. */
export interface LanExecResult {
  stdout: string;
  stderr: string;
}

/** Options of {@link Lan.exec}: kills the process after `timeoutMs` (default 15 s). */
export interface LanExecOptions {
  timeoutMs?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * A live virtual LAN. Owns its namespaces and every process started through
 * `spawn`; `destroy` kills all processes inside its namespaces and deletes
 * them (which deletes the veths and the bridge). `destroy` is idempotent and
 * also runs on process exit, SIGINT, SIGTERM and SIGHUP.
 */
export interface Lan {
  prefix: string;
  /** First three octets of the IPv4 /24, e.g. `10.231.17`. */
  subnet: string;
  /** Namespace holding the bridge. */
  switchName: string;
  hosts: LanHost[];
  /** Every namespace this LAN made (switch first). */
  namespaces: string[];
  /** Runs `cmd args` inside a host namespace; rejects on a non-zero exit or timeout (error carries the output). */
  exec(host: LanHost | string, cmd: string, args?: string[], options?: LanExecOptions): Promise<LanExecResult>;
  /** Starts `cmd args` inside a host namespace (the child's pid is the command itself: `ip netns exec` execs). */
  spawn(host: LanHost | string, cmd: string, args?: string[], options?: SpawnOptions): ChildProcess;
  destroy(): Promise<void>;
}

/** Options of {@link createLan}: `prefix` must be unique on this machine (default: `sl<pid>r<random>`). */
export interface CreateLanOptions {
  hosts: number;
  prefix?: string;
  /** First three octets of the /24 (default `10.231.<random>`); it exists only inside the namespaces. */
  subnet?: string;
}

/** Namespace sets of live LANs, for the exit/signal handlers. */
const live = new Map<string, { namespaces: string[]; children: Set<ChildProcess> }>();
let handlersInstalled = false;
let availability: Promise<string | null> | null = null;

function ipSync(args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

async function ip(args: string[]): Promise<string> {
  try {
    return (await execFileAsync('ip', args, { encoding: 'utf8' })).stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`ip ${args.join(' ')} failed: ${(e.stderr ?? '').trim() || e.message}`, { cause: err });
  }
}

/** Names in `ip netns list` (lines look like `name (id: 3)` or just `name`). */
function listNamespacesSync(): string[] {
  return ipSync(['netns', 'list']).split('\n').map((l) => l.trim().split(/\s+/)[0] ?? '').filter(Boolean);
}

/** Every namespace currently listed by `ip netns list`. */
export async function listNamespaces(): Promise<string[]> {
  return listNamespacesSync();
}

/** SIGKILLs every process inside `ns`, then deletes it. Never throws: used on exit paths. */
function removeNamespaceSync(ns: string): void {
  // A namespace with processes left in it outlives `ip netns delete` (only its
  // name goes), keeping its veths and sockets alive; so empty it first.
  try {
    for (const pid of ipSync(['netns', 'pids', ns]).split(/\s+/).filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  } catch {
    // Namespace already deleted.
  }
  try {
    ipSync(['netns', 'delete', ns]);
  } catch {
    // Already deleted.
  }
}

/** Tears down every live LAN synchronously: exit handlers cannot wait for promises. */
function destroyAllSync(): void {
  for (const [prefix, entry] of live) {
    for (const child of entry.children) child.kill('SIGKILL');
    for (const ns of entry.namespaces) removeNamespaceSync(ns);
    live.delete(prefix);
  }
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', destroyAllSync);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      destroyAllSync();
      // Listening for a signal cancels its default action; restore it when we
      // are the only listener so the process still dies as the sender meant.
      if (process.listenerCount(signal) === 1) {
        process.off(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

/**
 * Null when virtual LANs can be built here (Linux, root, iproute2, netns +
 * bridge + veth support), else a one-line reason. Tried for real once per
 * process with a scratch namespace pair, then cached.
 */
export function lanAvailable(): Promise<string | null> {
  availability ??= (async () => {
    if (process.platform !== 'linux') return `network namespaces need Linux (this is ${process.platform})`;
    if (process.getuid?.() !== 0) return 'network namespaces need root (run the integration suite as root)';
    try {
      await ip(['-V']);
    } catch {
      return "iproute2's `ip` is not on PATH";
    }
    const a = `${LAN_PREFIX}${process.pid}rprobe-sw`;
    const b = `${LAN_PREFIX}${process.pid}rprobe-h1`;
    try {
      await ip(['netns', 'add', a]);
      await ip(['netns', 'add', b]);
      await ip(['-n', a, 'link', 'add', 'br0', 'type', 'bridge']);
      await ip(['-n', a, 'link', 'add', 'h1', 'type', 'veth', 'peer', 'name', 'eth0', 'netns', b]);
      return null;
    } catch (err) {
      return `cannot build a virtual LAN here: ${(err as Error).message}`;
    } finally {
      removeNamespaceSync(a);
      removeNamespaceSync(b);
    }
  })();
  return availability;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Deletes leftover LAN namespaces (`<prefix>…-sw`, `<prefix>…-hN`) from earlier
 * crashed runs and returns their names. Spares LANs of this process and, for
 * default-named ones (`<prefix><pid>r…`), those whose creating process is
 * still running, so concurrent test runs do not tear each other down.
 */
export async function cleanupStaleLans(prefix: string = LAN_PREFIX): Promise<string[]> {
  const ours = new Set([...live.values()].flatMap((l) => l.namespaces));
  const removed: string[] = [];
  for (const ns of await listNamespaces()) {
    if (!ns.startsWith(prefix) || !/-(sw|h\d+)$/.test(ns) || ours.has(ns)) continue;
    const owner = /^(\d+)r/.exec(ns.slice(prefix.length))?.[1];
    if (owner !== undefined && Number(owner) !== process.pid && isRunning(Number(owner))) continue;
    removeNamespaceSync(ns);
    removed.push(ns);
  }
  return removed;
}

/** Polls until eth0 in `ns` has a link-local address that is not tentative. */
async function linkLocalOf(ns: string, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const out = await ip(['-n', ns, '-6', '-o', 'addr', 'show', 'dev', 'eth0', 'scope', 'link']);
    const line = out.split('\n').find((l) => / fe80:/.test(l) && !/tentative|dadfailed/.test(l));
    const address = line && /inet6 (fe80:[0-9a-f:]+)\//.exec(line)?.[1];
    if (address) return address;
    if (Date.now() > deadline) throw new Error(`${ns}: eth0 has no usable link-local address after ${timeoutMs} ms:\n${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Builds a LAN of `hosts` hosts (1-200). Rejects with the reason from
 * {@link lanAvailable} when namespaces cannot be made; on any other failure it
 * removes whatever it had built before rejecting.
 */
export async function createLan(options: CreateLanOptions): Promise<Lan> {
  const count = options.hosts;
  if (!Number.isInteger(count) || count < 1 || count > 200) throw new Error(`createLan: hosts must be 1-200, got ${count}`);
  const reason = await lanAvailable();
  if (reason !== null) throw new Error(reason);
  const prefix = options.prefix ?? `${LAN_PREFIX}${process.pid}r${randomBytes(2).toString('hex')}`;
  const subnet = options.subnet ?? `10.231.${1 + Math.floor(Math.random() * 254)}`;
  const switchName = `${prefix}-sw`;
  const hostNames = Array.from({ length: count }, (_, i) => `${prefix}-h${i + 1}`);
  const namespaces = [switchName, ...hostNames];
  const children = new Set<ChildProcess>();
  installHandlers();
  // Registered before the first namespace exists, so a crash mid-build still cleans up.
  live.set(prefix, { namespaces, children });
  const destroy = async (): Promise<void> => {
    const entry = live.get(prefix);
    if (!entry) return;
    live.delete(prefix);
    for (const child of entry.children) child.kill('SIGKILL');
    for (const ns of entry.namespaces) removeNamespaceSync(ns);
  };
  try {
    const sysctl = (ns: string, setting: string) => ip(['netns', 'exec', ns, 'sysctl', '-qw', setting]);
    await ip(['netns', 'add', switchName]);
    // The switch only forwards frames; keep it from chattering (RS, MLD) on the LAN itself.
    await sysctl(switchName, 'net.ipv6.conf.all.disable_ipv6=1');
    await sysctl(switchName, 'net.ipv6.conf.default.disable_ipv6=1');
    // Snooping off: the bridge floods multicast like a dumb hub, so delivery
    // never depends on MLD reports racing the first datagram.
    await ip(['-n', switchName, 'link', 'add', 'br0', 'type', 'bridge', 'stp_state', '0', 'forward_delay', '0', 'mcast_snooping', '0']);
    await ip(['-n', switchName, 'link', 'set', 'br0', 'up']);
    const hosts = await Promise.all(
      hostNames.map(async (ns, i): Promise<LanHost> => {
        const port = `h${i + 1}`;
        await ip(['netns', 'add', ns]);
        // Before eth0 exists, so it inherits these: no DAD wait, and no router solicitations.
        await sysctl(ns, 'net.ipv6.conf.default.accept_dad=0');
        await sysctl(ns, 'net.ipv6.conf.default.router_solicitations=0');
        await ip(['-n', switchName, 'link', 'add', port, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns]);
        await ip(['-n', switchName, 'link', 'set', port, 'master', 'br0', 'up']);
        const ipv4 = `${subnet}.${i + 1}`;
        await ip(['-n', ns, 'addr', 'add', `${ipv4}/24`, 'brd', '+', 'dev', 'eth0']);
        await ip(['-n', ns, 'link', 'set', 'lo', 'up']);
        await ip(['-n', ns, 'link', 'set', 'eth0', 'multicast', 'on', 'up']);
        return { name: ns, ipv4, broadcast: `${subnet}.255`, ipv6LinkLocal: await linkLocalOf(ns) };
      }),
    );
    const hostName = (host: LanHost | string): string => {
      const name = typeof host === 'string' ? host : host.name;
      if (!hostNames.includes(name)) throw new Error(`${name} is not a host of LAN ${prefix}`);
      return name;
    };
    return {
      prefix,
      subnet,
      switchName,
      hosts,
      namespaces: [...namespaces],
      async exec(host, cmd, args = [], opts = {}) {
        const argv = ['netns', 'exec', hostName(host), cmd, ...args];
        const { timeoutMs = 15_000, ...rest } = opts;
        try {
          const r = await execFileAsync('ip', argv, { ...rest, encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL' });
          return { stdout: r.stdout, stderr: r.stderr };
        } catch (err) {
          const e = err as { stdout?: string; stderr?: string; message: string };
          throw new Error(`${cmd} in ${hostName(host)} failed: ${e.message}\nstdout:\n${e.stdout ?? ''}\nstderr:\n${e.stderr ?? ''}`, { cause: err });
        }
      },
      spawn(host, cmd, args = [], opts = {}) {
        if (!live.has(prefix)) throw new Error(`LAN ${prefix} is destroyed`);
        const child = spawnTracked('ip', ['netns', 'exec', hostName(host), cmd, ...args], opts);
        children.add(child);
        child.once('exit', () => children.delete(child));
        return child;
      },
      destroy,
    };
  } catch (err) {
    await destroy();
    throw err;
  }
}
