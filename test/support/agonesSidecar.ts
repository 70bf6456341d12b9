/**
 * A stand-in for the Agones SDK sidecar: a real gRPC server on loopback
 * serving `agones.dev.sdk.SDK` and `agones.dev.sdk.alpha.SDK` from the
 * service definitions the SDK package ships (lib/sdk_grpc_pb.js,
 * lib/alpha/alpha_grpc_pb.js), recording every call in order so a test can
 * wait for what a gameserver told it. Like the real sidecar, it answers a
 * WatchGameServer with the current GameServer at once and again on every
 * change (Ready moves it to `Ready`; {@link AgonesSidecar.push} to any state).
 */
import { createRequire } from 'node:module';
import type { sendUnaryData, ServerReadableStream, ServerUnaryCall, ServerWritableStream, ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';

const require = createRequire(import.meta.url);
// gRPC as the SDK resolves it (a dependency of the SDK, not of Starlane): the stand-in serves with the library the client uses.
const grpc = createRequire(require.resolve('@google-cloud/agones-sdk'))('@grpc/grpc-js') as typeof import('@grpc/grpc-js');
const { Server, ServerCredentials } = grpc;
type Server = InstanceType<typeof Server>;

interface KeyValueMessage {
  getKey(): string;
  getValue(): string;
}
interface PlayerIdMessage {
  getPlayerid(): string;
}
interface CountMessage {
  getCount(): number;
  setCount(n: number): void;
}
interface BoolMessage {
  setBool(b: boolean): void;
}
interface GameServerMessage {
  setObjectMeta(m: unknown): void;
  setStatus(s: unknown): void;
}
interface StatusMessage {
  setState(s: string): void;
  setPortsList(ports: PortMessage[]): void;
}
interface PortMessage {
  setName(n: string): void;
  setPort(p: number): void;
}
interface ObjectMetaMessage {
  setName(n: string): void;
}
type Ctor<T> = new () => T;
interface SdkMessages {
  Empty: Ctor<object>;
  GameServer: Ctor<GameServerMessage> & { Status: Ctor<StatusMessage> & { Port: Ctor<PortMessage> }; ObjectMeta: Ctor<ObjectMetaMessage> };
}
interface AlphaMessages {
  Empty: Ctor<object>;
  Count: Ctor<CountMessage>;
  Bool: Ctor<BoolMessage>;
}

const sdkPb = require('@google-cloud/agones-sdk/lib/sdk_pb.js') as SdkMessages;
const alphaPb = require('@google-cloud/agones-sdk/lib/alpha/alpha_pb.js') as AlphaMessages;
const sdkService = (require('@google-cloud/agones-sdk/lib/sdk_grpc_pb.js') as Record<string, ServiceDefinition>)['agones.dev.sdk.SDK'] as ServiceDefinition;
const alphaService = (require('@google-cloud/agones-sdk/lib/alpha/alpha_grpc_pb.js') as Record<string, ServiceDefinition>)['agones.dev.sdk.alpha.SDK'] as ServiceDefinition;

/** One call the stand-in served: its method (`Ready`, `Health`, `SetLabel`, `PlayerConnect`, …) and argument. */
export interface SidecarCall {
  method: string;
  arg?: string;
}

/** The stand-in sidecar. Call {@link close} when done. */
export class AgonesSidecar {
  readonly calls: SidecarCall[] = [];
  readonly labels = new Map<string, string>();
  readonly players = new Set<string>();
  capacity = 0;
  /** What `beforeReady` found as Ready arrived (it runs before Ready is answered). */
  readyFound: unknown = undefined;
  beforeReady: (() => Promise<unknown>) | null = null;
  /** The node's ports its GameServer's status lists (a Dynamic port policy's allocation), by the fleet's port names. */
  ports: { name: string; port: number }[] = [];
  private state = 'Scheduled';
  private readonly watchers = new Set<ServerWritableStream<unknown, unknown>>();
  private readonly healthStreams = new Set<ServerReadableStream<unknown, unknown>>();
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  /** Starts a stand-in on `localhost` (where the SDK looks) at a free port. */
  static async start(): Promise<AgonesSidecar> {
    const server = new Server();
    const port = await new Promise<number>((resolve, reject) => server.bindAsync('localhost:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
    const sidecar = new AgonesSidecar(server, port);
    server.addService(sdkService, sidecar.sdk());
    server.addService(alphaService, sidecar.alpha());
    return sidecar;
  }

  /** How many calls of `method` it served. */
  count(method: string): number {
    return this.calls.filter((c) => c.method === method).length;
  }

  /** The GameServer moves to `state` (as an allocation would move it to Allocated): every watcher hears it. */
  push(state: string): void {
    this.state = state;
    for (const w of this.watchers) w.write(this.gameServer());
  }

  /** Resolves when `check` holds (tried on every call served); rejects after `ms` naming `what` and the calls so far. */
  until<T>(what: string, check: () => T | undefined | null | false, ms = 15_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const done = () => {
        const v = check();
        if (v === undefined || v === null || v === false) return;
        cleanup();
        resolve(v);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`agones stand-in: timed out after ${ms} ms waiting for ${what}; calls: ${JSON.stringify(this.calls.slice(-20))}`));
      }, ms);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
      };
      this.waiters.add(done);
      done();
    });
  }

  /** Ends every stream and stops the server. */
  async close(): Promise<void> {
    for (const w of this.watchers) w.end();
    this.watchers.clear();
    await new Promise<void>((resolve) => this.server.tryShutdown(() => resolve()));
    this.server.forceShutdown();
  }

  private record(method: string, arg?: string): void {
    this.calls.push(arg === undefined ? { method } : { method, arg });
    for (const w of [...this.waiters]) w();
  }

  private gameServer(): GameServerMessage {
    const gs = new sdkPb.GameServer();
    const meta = new sdkPb.GameServer.ObjectMeta();
    meta.setName('starlane-test');
    const status = new sdkPb.GameServer.Status();
    status.setState(this.state);
    status.setPortsList(
      this.ports.map((p) => {
        const port = new sdkPb.GameServer.Status.Port();
        port.setName(p.name);
        port.setPort(p.port);
        return port;
      }),
    );
    gs.setObjectMeta(meta);
    gs.setStatus(status);
    return gs;
  }

  private sdk(): UntypedServiceImplementation {
    const empty = (method: string, then?: () => void) => (_call: ServerUnaryCall<unknown, unknown>, reply: sendUnaryData<unknown>) => {
      this.record(method);
      then?.();
      reply(null, new sdkPb.Empty());
    };
    return {
      ready: (_call: ServerUnaryCall<unknown, unknown>, reply: sendUnaryData<unknown>) => {
        // What the test looks for runs before the answer, while the server waits for it.
        void (this.beforeReady?.() ?? Promise.resolve(undefined)).catch((err: unknown) => ({ failed: String(err) })).then((found) => {
          this.readyFound = found;
          this.record('Ready');
          reply(null, new sdkPb.Empty());
          this.push('Ready');
        });
      },
      allocate: empty('Allocate', () => this.push('Allocated')),
      shutdown: empty('Shutdown', () => this.push('Shutdown')),
      reserve: empty('Reserve', () => this.push('Reserved')),
      health: (call: ServerReadableStream<unknown, unknown>, reply: sendUnaryData<unknown>) => {
        this.healthStreams.add(call);
        call.on('data', () => this.record('Health'));
        call.on('error', () => this.healthStreams.delete(call));
        call.on('end', () => {
          this.healthStreams.delete(call);
          reply(null, new sdkPb.Empty());
        });
      },
      getGameServer: (_call: ServerUnaryCall<unknown, unknown>, reply: sendUnaryData<unknown>) => {
        this.record('GetGameServer');
        reply(null, this.gameServer());
      },
      watchGameServer: (call: ServerWritableStream<unknown, unknown>) => {
        this.record('WatchGameServer');
        this.watchers.add(call);
        call.on('cancelled', () => this.watchers.delete(call));
        call.on('error', () => this.watchers.delete(call));
        call.write(this.gameServer());
      },
      setLabel: (call: ServerUnaryCall<KeyValueMessage, unknown>, reply: sendUnaryData<unknown>) => {
        this.labels.set(call.request.getKey(), call.request.getValue());
        this.record('SetLabel', `${call.request.getKey()}=${call.request.getValue()}`);
        reply(null, new sdkPb.Empty());
      },
      setAnnotation: (call: ServerUnaryCall<KeyValueMessage, unknown>, reply: sendUnaryData<unknown>) => {
        this.record('SetAnnotation', `${call.request.getKey()}=${call.request.getValue()}`);
        reply(null, new sdkPb.Empty());
      },
    };
  }

  private alpha(): UntypedServiceImplementation {
    const bool = (b: boolean) => {
      const m = new alphaPb.Bool();
      m.setBool(b);
      return m;
    };
    const count = (n: number) => {
      const m = new alphaPb.Count();
      m.setCount(n);
      return m;
    };
    return {
      playerConnect: (call: ServerUnaryCall<PlayerIdMessage, unknown>, reply: sendUnaryData<unknown>) => {
        const id = call.request.getPlayerid();
        const added = !this.players.has(id);
        this.players.add(id);
        this.record('PlayerConnect', id);
        reply(null, bool(added));
      },
      playerDisconnect: (call: ServerUnaryCall<PlayerIdMessage, unknown>, reply: sendUnaryData<unknown>) => {
        const id = call.request.getPlayerid();
        const removed = this.players.delete(id);
        this.record('PlayerDisconnect', id);
        reply(null, bool(removed));
      },
      setPlayerCapacity: (call: ServerUnaryCall<CountMessage, unknown>, reply: sendUnaryData<unknown>) => {
        this.capacity = call.request.getCount();
        this.record('SetPlayerCapacity', String(this.capacity));
        reply(null, new alphaPb.Empty());
      },
      getPlayerCapacity: (_call: ServerUnaryCall<unknown, unknown>, reply: sendUnaryData<unknown>) => reply(null, count(this.capacity)),
      getPlayerCount: (_call: ServerUnaryCall<unknown, unknown>, reply: sendUnaryData<unknown>) => reply(null, count(this.players.size)),
    };
  }
}
