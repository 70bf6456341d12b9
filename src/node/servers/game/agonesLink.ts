/**
 * A gameserver run by Agones (`--agones`): what it tells the Agones SDK
 * sidecar of its pod, over the official SDK (`@google-cloud/agones-sdk`, gRPC
 * to `localhost:${AGONES_SDK_GRPC_PORT:-9357}`):
 * - connect within a bounded time, or fail the start with one line;
 * - Ready once every socket listens; Health every few seconds until it stops;
 * - its seats (alpha player tracking: capacity, each player's connect and
 *   disconnect) and labels a fleet can select on (players, galaxy, systems,
 *   server name, each value made a valid Kubernetes label value);
 * - the GameServer's state as the sidecar pushes it (Allocated: a matchmaker
 *   took this server), passed to whoever listens (the masterserver link);
 * - Shutdown when the admin (or Kubernetes) stops the process, then close.
 * Nothing the sidecar does or fails to do throws at the game: every failed
 * call is logged (once per kind of call until one succeeds again).
 */
import type { Logger } from '../../log';

/** The GameServer as the SDK hands it over (only what Starlane reads). */
export interface AgonesGameServer {
  status?: { state?: string; portsList?: { name?: string; port?: number }[] } | undefined;
}

/** The names of the fleet's ports (deploy/agones/fleet.yaml): the TCP join port and the UDP game port. */
export const AGONES_PORT_NAMES = { join: 'join', game: 'game' } as const;

/**
 * What Starlane calls of the Agones SDK: the subset of `AgonesSDK` it uses,
 * so a test or another transport can stand in.
 */
export interface AgonesSdk {
  connect(): Promise<void>;
  getGameServer(): Promise<AgonesGameServer>;
  ready(): Promise<unknown>;
  health(onError: (error: unknown) => void): void;
  shutdown(): Promise<unknown>;
  setLabel(key: string, value: string): Promise<unknown>;
  watchGameServer(onChange: (gameServer: AgonesGameServer) => void, onError: (error: unknown) => void): void;
  close(): void;
  alpha: {
    playerConnect(playerId: string): Promise<boolean>;
    playerDisconnect(playerId: string): Promise<boolean>;
    setPlayerCapacity(capacity: number): Promise<unknown>;
  };
}

/** Options of {@link AgonesLink.connect}. */
export interface AgonesLinkOptions {
  log: Logger;
  /** Where the sidecar is, for the failure line (`localhost:9357`). */
  where: string;
  /** How long the sidecar may take to answer at start (ms). */
  connectMs: number;
  /** Health pings every this many ms. */
  healthMs: number;
}

/** The longest Kubernetes label value. */
const MAX_LABEL_CHARS = 63;
/** How long a stopping server waits for the sidecar's answer to Shutdown (ms): the process must still exit within stopOnSignals' 5 s. */
const SHUTDOWN_WAIT_MS = 1500;

/**
 * `text` as a Kubernetes label value: at most 63 characters of `[A-Za-z0-9._-]`,
 * beginning and ending with a letter or digit (each run of other characters
 * becomes one `-`; empty if nothing is left).
 */
export function labelValue(text: string): string {
  const trim = (s: string) => s.replace(/^[^A-Za-z0-9]+/, '').replace(/[^A-Za-z0-9]+$/, '');
  return trim(trim(text.replace(/[^A-Za-z0-9._-]+/g, '-')).slice(0, MAX_LABEL_CHARS));
}

/** The sidecar's address as the SDK computes it (`localhost:$AGONES_SDK_GRPC_PORT`, default 9357). */
export function sidecarAddress(env: NodeJS.ProcessEnv = process.env): string {
  return `localhost:${env.AGONES_SDK_GRPC_PORT || '9357'}`;
}

/** A connected Agones SDK and what this server has told it. */
export class AgonesLink {
  private health: NodeJS.Timeout | undefined;
  private readonly failing = new Set<string>();
  /** The players the sidecar counts as connected (by name, as the server seats them). */
  private readonly tracked = new Set<string>();
  private labels = new Map<string, string>();
  private stateNow: string | null = null;
  private stopped = false;
  private readonly listeners: ((state: string) => void)[] = [];

  private constructor(
    private readonly sdk: AgonesSdk,
    private readonly options: AgonesLinkOptions,
  ) {}

  /**
   * Connects to the sidecar; rejects with one line for a person when it does
   * not answer within `connectMs` (the SDK is closed then).
   */
  static async connect(sdk: AgonesSdk, options: AgonesLinkOptions): Promise<AgonesLink> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no Agones SDK sidecar at ${options.where} (AGONES_SDK_GRPC_PORT) within ${options.connectMs / 1000} s`)), options.connectMs);
    });
    try {
      await Promise.race([sdk.connect(), late]);
    } catch (err) {
      sdk.close();
      const text = (err as Error).message.startsWith('no Agones SDK sidecar') ? (err as Error).message : `the Agones SDK sidecar at ${options.where} refused the connection: ${(err as Error).message}`;
      throw new Error(text, { cause: err });
    } finally {
      clearTimeout(timer);
    }
    return new AgonesLink(sdk, options);
  }

  /**
   * The node's ports Agones gave this GameServer (its `status.ports`, by the fleet's port names: `join`
   * TCP, `game` UDP): where players reach it under a Dynamic port policy. A port not there (or an
   * unanswered call, logged) is undefined: the server then announces the one it listens on.
   */
  async hostPorts(): Promise<{ tcp?: number; udp?: number }> {
    let gs: AgonesGameServer | undefined;
    await this.call('getGameServer', async () => {
      gs = await this.sdk.getGameServer();
    });
    const ports = Array.isArray(gs?.status?.portsList) ? gs.status.portsList : [];
    const portOf = (name: string) => {
      const p = ports.find((x) => x?.name === name)?.port;
      return typeof p === 'number' && Number.isInteger(p) && p >= 1 && p <= 65535 ? p : undefined;
    };
    const tcp = portOf(AGONES_PORT_NAMES.join);
    const udp = portOf(AGONES_PORT_NAMES.game);
    return { ...(tcp === undefined ? {} : { tcp }), ...(udp === undefined ? {} : { udp }) };
  }

  /** The GameServer's state as the sidecar last said (`Ready`, `Allocated`, …), or null before it said one. */
  get state(): string | null {
    return this.stateNow;
  }

  /** Calls `listener` with each new GameServer state the sidecar pushes. */
  onState(listener: (state: string) => void): void {
    this.listeners.push(listener);
  }

  /**
   * The server listens: tells the seats and labels, says Ready, starts the
   * health pings and watches the GameServer. Resolves once Ready was
   * answered (or failed, which is logged).
   */
  async ready(seats: number, labels: Record<string, string>): Promise<void> {
    this.watch();
    await Promise.all([this.call('setPlayerCapacity', () => this.sdk.alpha.setPlayerCapacity(seats)), this.setLabels(labels)]);
    await this.call('ready', () => this.sdk.ready());
    this.options.log.info({ sidecar: this.options.where, healthMs: this.options.healthMs }, 'agones: ready');
    this.ping();
    this.health = setInterval(() => this.ping(), this.options.healthMs);
  }

  /**
   * The seated players now (names): each newcomer connected, each one gone
   * disconnected (a renamed player is both), and the `players` label set.
   */
  players(names: readonly string[]): void {
    if (this.stopped) return;
    const now = new Set(names);
    const calls: Promise<void>[] = [];
    for (const name of [...this.tracked]) {
      if (now.has(name)) continue;
      this.tracked.delete(name);
      calls.push(this.call('playerDisconnect', () => this.sdk.alpha.playerDisconnect(name)));
    }
    for (const name of now) {
      if (this.tracked.has(name)) continue;
      this.tracked.add(name);
      calls.push(this.call('playerConnect', () => this.sdk.alpha.playerConnect(name)));
    }
    if (calls.length > 0) void Promise.all(calls).then(() => this.setLabels({ players: String(now.size) }));
  }

  /** Sets the labels whose values changed (each made a valid label value). */
  async setLabels(labels: Record<string, string>): Promise<void> {
    const calls: Promise<void>[] = [];
    for (const [key, raw] of Object.entries(labels)) {
      const value = labelValue(raw);
      if (this.labels.get(key) === value) continue;
      this.labels.set(key, value);
      calls.push(this.call('setLabel', () => this.sdk.setLabel(key, value)));
    }
    await Promise.all(calls);
  }

  /** Stops the pings, says Shutdown (waiting a little for the answer) and closes the SDK. Never rejects; once only. */
  async shutdown(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.health);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_WAIT_MS)));
    const answered = this.call('shutdown', () => this.sdk.shutdown()).then(() => !this.failing.has('shutdown'));
    const ok = await Promise.race([answered, late.then(() => false)]);
    clearTimeout(timer);
    if (ok) this.options.log.info('agones: shutdown sent');
    else if (!this.failing.has('shutdown')) this.options.log.warn({ waitedMs: SHUTDOWN_WAIT_MS }, 'agones: the sidecar did not answer Shutdown in time');
    this.close();
  }

  /** Closes the SDK's connection without saying Shutdown (a start that failed later). */
  close(): void {
    this.stopped = true;
    clearInterval(this.health);
    try {
      this.sdk.close();
    } catch (err) {
      this.options.log.warn({ err }, 'agones: closing the SDK failed');
    }
  }

  private ping(): void {
    if (this.stopped) return;
    try {
      this.sdk.health((err) => this.failed('health', err));
    } catch (err) {
      this.failed('health', err);
    }
  }

  private watch(): void {
    try {
      this.sdk.watchGameServer(
        (gs) => {
          const state = typeof gs.status?.state === 'string' ? gs.status.state.slice(0, 40) : '';
          if (state === '' || state === this.stateNow) return;
          this.stateNow = state;
          this.options.log.info({ state }, 'agones: game server state');
          for (const l of this.listeners) {
            try {
              l(state);
            } catch (err) {
              this.options.log.error({ err }, 'agones: a state listener threw');
            }
          }
        },
        (err) => {
          if (!this.stopped) this.failed('watchGameServer', err);
        },
      );
    } catch (err) {
      this.failed('watchGameServer', err);
    }
  }

  /** Runs one SDK call: its failure logged once per kind until one of that kind succeeds again. */
  private async call(kind: string, run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
      if (this.failing.delete(kind)) this.options.log.info({ call: kind }, 'agones: the sidecar answers again');
    } catch (err) {
      this.failed(kind, err);
    }
  }

  private failed(kind: string, err: unknown): void {
    if (this.failing.has(kind)) return;
    this.failing.add(kind);
    this.options.log.warn({ call: kind, why: (err as Error | undefined)?.message ?? String(err) }, `agones: ${kind} failed`);
  }
}
