/**
 * The gameserver's Agones link (src/node/servers/game/agonesLink.ts) over a
 * fake SDK: label values made valid for Kubernetes, a sidecar that never
 * answers failing the start with one line, players tracked by name as they
 * come, go and rename, and a failing sidecar logged once, never thrown.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AgonesLink, labelValue, sidecarAddress, type AgonesGameServer, type AgonesSdk } from '../../../src/node/servers/game/agonesLink';
import { fleetStateOf } from '../../../src/node/servers/cliAgones';

function captureLog() {
  const records: { level: number; msg: string; [k: string]: unknown }[] = [];
  return { log: pino({ level: 'debug' }, { write: (s: string) => void records.push(JSON.parse(s) as (typeof records)[number]) }), records };
}

/** A fake SDK recording its calls; `fail` names calls that reject; `connect` may never resolve. */
function fakeSdk(opts: { fail?: string[]; neverConnects?: boolean; ports?: { name?: string; port?: number }[] } = {}) {
  const calls: string[] = [];
  let push: ((gs: AgonesGameServer) => void) | undefined;
  const call = (what: string, result: unknown = {}) => {
    calls.push(what);
    return opts.fail?.some((f) => what.startsWith(f)) ? Promise.reject(new Error(`${what} refused`)) : Promise.resolve(result);
  };
  const sdk: AgonesSdk = {
    connect: () => (opts.neverConnects ? new Promise<void>(() => undefined) : Promise.resolve()),
    getGameServer: () => call('getGameServer', { status: { state: 'Scheduled', portsList: opts.ports ?? [] } }) as Promise<AgonesGameServer>,
    ready: () => call('ready'),
    health: (onError) => {
      calls.push('health');
      if (opts.fail?.includes('health')) onError(new Error('stream broken'));
    },
    shutdown: () => call('shutdown'),
    setLabel: (k, v) => call(`label ${k}=${v}`),
    watchGameServer: (onChange) => {
      calls.push('watch');
      push = onChange;
    },
    close: () => void calls.push('close'),
    alpha: {
      playerConnect: (id) => call(`connect ${id}`, true) as Promise<boolean>,
      playerDisconnect: (id) => call(`disconnect ${id}`, true) as Promise<boolean>,
      setPlayerCapacity: (n) => call(`capacity ${n}`),
    },
  };
  return { sdk, calls, push: (state: string) => push?.({ status: { state } }) };
}

const open = (sdk: AgonesSdk, log = captureLog().log) => AgonesLink.connect(sdk, { log, where: 'localhost:9357', connectMs: 50, healthMs: 60_000 });

describe('the Agones link', () => {
  it("reads the node's ports Agones gave the fleet's join and game ports, and ignores anything else", async () => {
    const link = await open(fakeSdk({ ports: [{ name: 'join', port: 7001 }, { name: 'game', port: 7002 }, { name: 'other', port: 7003 }] }).sdk);
    expect(await link.hostPorts()).toEqual({ tcp: 7001, udp: 7002 });
    const odd = await open(fakeSdk({ ports: [{ name: 'join', port: 0 }, { name: 'game', port: 70_000 }] }).sdk);
    expect(await odd.hostPorts()).toEqual({});
    const { log, records } = captureLog();
    const failing = await open(fakeSdk({ fail: ['getGameServer'] }).sdk, log);
    expect(await failing.hostPorts()).toEqual({});
    expect(records.filter((r) => r.msg === 'agones: getGameServer failed')).toHaveLength(1);
  });

  it('makes label values Kubernetes takes: 63 characters at most of letters, digits, dot, dash and underscore, alphanumeric at both ends', () => {
    expect(labelValue('Orion')).toBe('Orion');
    expect(labelValue('Agones_test!')).toBe('Agones_test');
    expect(labelValue('  my server #1 ')).toBe('my-server-1');
    expect(labelValue('Sol.Vega')).toBe('Sol.Vega');
    expect(labelValue('!!!')).toBe('');
    const long = labelValue(`${'a'.repeat(62)}-b`);
    expect(long).toBe('a'.repeat(62));
    expect(labelValue('x'.repeat(100))).toHaveLength(63);
    expect(sidecarAddress({ AGONES_SDK_GRPC_PORT: '1234' })).toBe('localhost:1234');
    expect(sidecarAddress({})).toBe('localhost:9357');
  });

  it('gives up on a sidecar that does not answer in time with one line, and closes the SDK', async () => {
    const f = fakeSdk({ neverConnects: true });
    await expect(open(f.sdk)).rejects.toThrow('no Agones SDK sidecar at localhost:9357 (AGONES_SDK_GRPC_PORT) within 0.05 s');
    expect(f.calls).toEqual(['close']);
  });

  it('says capacity, labels and Ready, then tracks players by name as they come, go and rename', async () => {
    const f = fakeSdk();
    const link = await open(f.sdk);
    await link.ready(12, { server: 'Agones test', galaxy: 'Orion', players: '0' });
    expect(f.calls).toEqual(['watch', 'capacity 12', 'label server=Agones-test', 'label galaxy=Orion', 'label players=0', 'ready', 'health']);
    f.calls.length = 0;
    link.players(['ace', 'bob']);
    link.players(['ace', 'bob']);
    link.players(['ace', 'cat']);
    await new Promise((r) => setImmediate(r));
    expect(f.calls).toEqual(['connect ace', 'connect bob', 'disconnect bob', 'connect cat', 'label players=2']);
    await link.shutdown();
    expect(f.calls.slice(-2)).toEqual(['shutdown', 'close']);
  });

  it('passes each new GameServer state on once, and logs a failing call once without throwing', async () => {
    const { log, records } = captureLog();
    const f = fakeSdk({ fail: ['connect', 'health'] });
    const link = await open(f.sdk, log);
    const states: string[] = [];
    link.onState((s) => states.push(s));
    await link.ready(4, {});
    f.push('Scheduled');
    f.push('Ready');
    f.push('Ready');
    f.push('Allocated');
    expect(states).toEqual(['Scheduled', 'Ready', 'Allocated']);
    expect(fleetStateOf('Allocated')).toBe('allocated');
    expect(fleetStateOf('Scheduled')).toBeNull();
    link.players(['ace']);
    link.players(['ace', 'bob']);
    await new Promise((r) => setImmediate(r));
    const warnings = records.filter((r) => r.level === 40).map((r) => r.msg);
    expect(warnings).toEqual(['agones: health failed', 'agones: playerConnect failed']);
    await link.shutdown();
  });

  it('a Shutdown the sidecar refuses is logged, not claimed sent, and the SDK is closed all the same', async () => {
    const { log, records } = captureLog();
    const f = fakeSdk({ fail: ['shutdown'] });
    const link = await open(f.sdk, log);
    await link.shutdown();
    await link.shutdown();
    expect(f.calls).toEqual(['shutdown', 'close']);
    expect(records.map((r) => r.msg)).toEqual(['agones: shutdown failed']);
  });
});
