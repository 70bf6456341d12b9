/**
 * The bodies of a client demo's chunks (docs/DEMO.md, "Chunk bodies"): each
 * journal entry (game/journal.ts) as bytes, first byte its operation. Every
 * number that reaches the game is a float64 as it was (a replay must be
 * exact to the bit); a remote event is its wire bytes (wire/events.ts);
 * a world its lockstep codec's bytes. Values larger than one chunk body
 * (a snapshot, a world) go in parts. Reading validates everything and
 * returns a reason instead of throwing.
 */
import type { GamePlayer } from '../game/clientTypes';
import type { MatchLimits } from '../game/match';
import type { World } from '../game/types';
import { decodeWorld, encodeWorld } from '../lockstep/worldCodec';
import type { ShipInput } from '../sim/types';
import { remoteEvent } from '../wire/events';
import { measure } from '../wire/fields';
import { ByteWriter, DecodeFailure, Reader } from '../wire/stream';
import { MAX_NAME_LENGTH, type FrameInput, type RemoteEvent, type ShipState } from '../wire/types';
import { MAX_CHUNK_BODY, DemoKind } from './demoFormat';

/** One change to a ClientGame, or one step of a shared world, as a demo holds it. */
export type JournalEntry =
  | { op: 'step'; input: ShipInput; nowMs: number; bots: [number, ShipInput][] | null }
  | { op: 'converge'; ms: number }
  | { op: 'addBot' }
  | { op: 'removeBot'; slot: number | undefined }
  | { op: 'limits'; limits: Partial<MatchLimits> }
  | { op: 'players'; players: GamePlayer[]; localSlot: number | null }
  | { op: 'state'; slot: number; state: ShipState; nowMs: number; ageMs: number }
  | { op: 'event'; slot: number; event: RemoteEvent; nowMs: number; ageMs: number }
  /** The shared world before the next frame (a state transfer, a correction, the recording's first frame). */
  | { op: 'world'; world: World }
  /** The world the next frame steps from, when it is not the world before it (a netgame's joins and leaves). */
  | { op: 'from'; world: World }
  /** A frame stepped with these inputs, in this order. */
  | { op: 'frame'; inputs: [number, FrameInput][] }
  /** A frame that no inputs replay (a netgame correction inside it): its outcome. */
  | { op: 'result'; world: World }
  /** The frames since the last show were shown, our slot `slot`. */
  | { op: 'show'; slot: number };

const OPS: { [K in JournalEntry['op']]: { kind: DemoKind; code: number } } = {
  step: { kind: DemoKind.Local, code: 1 },
  converge: { kind: DemoKind.Local, code: 2 },
  addBot: { kind: DemoKind.Local, code: 3 },
  removeBot: { kind: DemoKind.Local, code: 4 },
  limits: { kind: DemoKind.Local, code: 5 },
  players: { kind: DemoKind.Delivery, code: 1 },
  state: { kind: DemoKind.Delivery, code: 2 },
  event: { kind: DemoKind.Delivery, code: 3 },
  world: { kind: DemoKind.Frame, code: 1 },
  from: { kind: DemoKind.Frame, code: 2 },
  frame: { kind: DemoKind.Frame, code: 3 },
  result: { kind: DemoKind.Frame, code: 4 },
  show: { kind: DemoKind.Frame, code: 5 },
};
const OP_BY_CODE = new Map(Object.entries(OPS).map(([op, { kind, code }]) => [kind * 256 + code, op as JournalEntry['op']]));
/** Operations whose value may need several chunks: [op][u16 part][u16 parts][bytes]. */
const LARGE = new Set<JournalEntry['op']>(['world', 'from', 'result']);
/** The bytes one part of a large value carries. */
export const PART_BYTES = MAX_CHUNK_BODY - 5;

class Out {
  private readonly bytes: number[] = [];
  private readonly scratch = new DataView(new ArrayBuffer(8));
  u8(v: number): this {
    this.bytes.push(v & 0xff);
    return this;
  }
  u16(v: number): this {
    return this.u8(v >>> 8).u8(v);
  }
  f64(v: number): this {
    this.scratch.setFloat64(0, v);
    for (let i = 0; i < 8; i++) this.bytes.push(this.scratch.getUint8(i));
    return this;
  }
  raw(b: Uint8Array): this {
    for (const x of b) this.bytes.push(x);
    return this;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const FLAGS = ['fire', 'afterburner', 'missile', 'mine', 'emp'] as const;

function putInput(o: Out, i: ShipInput): void {
  o.f64(i.thrust).f64(i.yaw).f64(i.pitch).f64(i.roll);
  let flags = 0;
  FLAGS.forEach((f, n) => {
    const v = i[f];
    flags |= (v === undefined ? 0 : v ? 2 : 1) << (2 * n);
  });
  o.u16(flags).f64(i.target === undefined ? Number.NaN : i.target);
}

function putState(o: Out, s: ShipState): void {
  for (const v of [s.pos.x, s.pos.y, s.pos.z, s.rot.x, s.rot.y, s.rot.z, s.rot.w, s.vel.x, s.vel.y, s.vel.z, s.angVel.x, s.angVel.y, s.angVel.z, s.energy, s.damage]) o.f64(v);
}

function putFrameInput(o: Out, i: FrameInput): void {
  o.u8(i.thrust).u8(i.yaw).u8(i.pitch).u8(i.roll).u8(i.buttons).u8(i.target);
}

/** The chunks (kind and body) of `e`: one, or the parts of a large value. */
export function encodeEntry(e: JournalEntry): { kind: DemoKind; body: Uint8Array }[] {
  const { kind, code } = OPS[e.op];
  const o = new Out().u8(code);
  switch (e.op) {
    case 'step':
      putInput(o, e.input);
      o.f64(e.nowMs).u8(e.bots === null ? 255 : e.bots.length);
      for (const [slot, input] of e.bots ?? []) putInput(o.u8(slot), input);
      break;
    case 'converge':
      o.f64(e.ms);
      break;
    case 'addBot':
      break;
    case 'removeBot':
      o.f64(e.slot ?? Number.NaN);
      break;
    case 'limits':
      o.f64(e.limits.killLimit ?? Number.NaN).f64(e.limits.timeLimitS ?? Number.NaN);
      break;
    case 'players':
      o.raw(new TextEncoder().encode(JSON.stringify({ players: e.players.map((p) => ({ slot: p.slot, joined: p.joined, local: p.local, ...(p.name === undefined ? {} : { name: p.name }) })), localSlot: e.localSlot })));
      break;
    case 'state':
      o.u8(e.slot).f64(e.nowMs).f64(e.ageMs);
      putState(o, e.state);
      break;
    case 'event': {
      o.u8(e.slot).f64(e.nowMs).f64(e.ageMs);
      const w = new ByteWriter(measure(remoteEvent, e.event));
      remoteEvent.write(w, e.event);
      o.raw(w.buf);
      break;
    }
    case 'frame':
      o.u8(e.inputs.length);
      for (const [slot, input] of e.inputs) putFrameInput(o.u8(slot), input);
      break;
    case 'show':
      o.u8(e.slot);
      break;
    case 'world':
    case 'from':
    case 'result':
      return partsOf(kind, code, encodeWorld(e.world));
  }
  return [{ kind, body: o.done() }];
}

/** `bytes` in parts: [code][u16 part][u16 parts][up to PART_BYTES]. */
export function partsOf(kind: DemoKind, code: number, bytes: Uint8Array): { kind: DemoKind; body: Uint8Array }[] {
  const count = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
  if (count > 0xffff) throw new RangeError(`${bytes.length} bytes are too many parts`);
  const out: { kind: DemoKind; body: Uint8Array }[] = [];
  for (let i = 0; i < count; i++) {
    const part = bytes.subarray(i * PART_BYTES, (i + 1) * PART_BYTES);
    const body = new Uint8Array(5 + part.length);
    body[0] = code;
    body[1] = i >>> 8;
    body[2] = i & 0xff;
    body[3] = count >>> 8;
    body[4] = count & 0xff;
    body.set(part, 5);
    out.push({ kind, body });
  }
  return out;
}

/** Gathers the parts of one large value, in order. */
export class PartAssembly {
  private parts: Uint8Array[] = [];
  private code = -1;

  /** A part: the whole value once its last part is in, else null; a part out of order is an error. */
  add(body: Uint8Array): { ok: true; bytes: Uint8Array | null } | { ok: false; reason: string } {
    if (body.length < 5) return { ok: false, reason: 'a part without its numbers' };
    const code = body[0] as number;
    const index = ((body[1] as number) << 8) | (body[2] as number);
    const count = ((body[3] as number) << 8) | (body[4] as number);
    if (count === 0 || index >= count) return { ok: false, reason: `part ${index} of ${count}` };
    if (index !== this.parts.length || (index > 0 && code !== this.code)) {
      this.parts = [];
      return { ok: false, reason: `part ${index + 1} of ${count} where part ${this.parts.length + 1} was due` };
    }
    this.code = code;
    this.parts.push(body.subarray(5));
    if (index + 1 < count) return { ok: true, bytes: null };
    const total = this.parts.reduce((n, p) => n + p.length, 0);
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const p of this.parts) {
      bytes.set(p, at);
      at += p.length;
    }
    this.parts = [];
    return { ok: true, bytes };
  }
}

class In {
  private at = 1;
  private readonly view: DataView;
  constructor(private readonly b: Uint8Array) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  private need(n: number): void {
    if (this.at + n > this.b.length) throw new BadBody('it ends early');
  }
  u8(): number {
    this.need(1);
    return this.b[this.at++] as number;
  }
  u16(): number {
    return (this.u8() << 8) | this.u8();
  }
  f64(): number {
    this.need(8);
    this.at += 8;
    return this.view.getFloat64(this.at - 8);
  }
  finite(what: string): number {
    const v = this.f64();
    if (!Number.isFinite(v)) throw new BadBody(`${what} is not a finite number`);
    return v;
  }
  rest(): Uint8Array {
    const out = this.b.subarray(this.at);
    this.at = this.b.length;
    return out;
  }
  end(): void {
    if (this.at !== this.b.length) throw new BadBody(`${this.b.length - this.at} bytes after its end`);
  }
}

class BadBody extends Error {}

const SIGNED = (b: number): number => (b > 127 ? b - 256 : b);

function takeInput(r: In): ShipInput {
  const input: ShipInput = { thrust: r.finite('thrust'), yaw: r.finite('yaw'), pitch: r.finite('pitch'), roll: r.finite('roll'), fire: false };
  const flags = r.u16();
  FLAGS.forEach((f, n) => {
    const v = (flags >> (2 * n)) & 3;
    if (v === 3) throw new BadBody('a button neither pressed nor released');
    if (v === 0 && f === 'fire') throw new BadBody('no fire button');
    if (v !== 0) input[f] = v === 2;
  });
  const target = r.f64();
  if (!Number.isNaN(target)) {
    if (!Number.isInteger(target)) throw new BadBody('a target that is no slot');
    input.target = target;
  }
  return input;
}

function takeState(r: In): ShipState {
  const n = Array.from({ length: 15 }, () => r.finite('a ship state field'));
  const [px, py, pz, rx, ry, rz, rw, vx, vy, vz, ax, ay, az, energy, damage] = n as [number, number, number, number, number, number, number, number, number, number, number, number, number, number, number];
  if (energy < 0 || energy > 100 || damage < 0 || damage > 100) throw new BadBody('energy or damage outside 0..100');
  return { pos: { x: px, y: py, z: pz }, rot: { x: rx, y: ry, z: rz, w: rw }, vel: { x: vx, y: vy, z: vz }, angVel: { x: ax, y: ay, z: az }, energy, damage };
}

function takePlayers(bytes: Uint8Array): { players: GamePlayer[]; localSlot: number | null } {
  let v: unknown;
  try {
    v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new BadBody('a slot table that is not JSON');
  }
  const o = v as { players?: unknown; localSlot?: unknown } | null;
  const slot = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 255;
  if (typeof o !== 'object' || o === null || !Array.isArray(o.players) || o.players.length > 256) throw new BadBody('no slot table');
  if (o.localSlot !== null && !slot(o.localSlot)) throw new BadBody('a local slot that is no slot');
  const players = o.players.map((p: unknown) => {
    const q = p as Record<string, unknown> | null;
    if (typeof q !== 'object' || q === null || !slot(q.slot) || typeof q.joined !== 'boolean' || typeof q.local !== 'boolean') throw new BadBody('a player without slot, joined and local');
    if (q.name !== undefined && (typeof q.name !== 'string' || q.name.length > MAX_NAME_LENGTH)) throw new BadBody('a player name that is not one');
    return { slot: q.slot, joined: q.joined, local: q.local, ...(typeof q.name === 'string' ? { name: q.name } : {}) };
  });
  return { players, localSlot: o.localSlot as number | null };
}

function takeWorld(bytes: Uint8Array): World {
  const read = decodeWorld(bytes);
  if (!read.ok) throw new BadBody(`a world the codec refuses (${read.reason})`);
  return read.world;
}

export type EntryRead = { ok: true; entry: JournalEntry } | { ok: false; reason: string };

/**
 * The entry of a chunk of `kind` (a large one: its whole value, gathered by
 * the caller's PartAssembly). Never throws.
 */
export function decodeEntry(kind: DemoKind, body: Uint8Array, assembled?: Uint8Array): EntryRead {
  const op = OP_BY_CODE.get(kind * 256 + (body[0] ?? -1));
  if (op === undefined) return { ok: false, reason: `operation ${body[0] ?? 'none'} of chunk kind ${kind}` };
  const r = new In(body);
  try {
    let entry: JournalEntry;
    switch (op) {
      case 'step': {
        const input = takeInput(r);
        const nowMs = r.finite('the tick time');
        const n = r.u8();
        let bots: [number, ShipInput][] | null = null;
        if (n !== 255) {
          bots = [];
          for (let i = 0; i < n; i++) bots.push([r.u8(), takeInput(r)]);
        }
        entry = { op, input, nowMs, bots };
        break;
      }
      case 'converge':
        entry = { op, ms: r.finite('the correction time') };
        break;
      case 'addBot':
        entry = { op };
        break;
      case 'removeBot': {
        const slot = r.f64();
        if (!Number.isNaN(slot) && !Number.isInteger(slot)) throw new BadBody('a bot slot that is no slot');
        entry = { op, slot: Number.isNaN(slot) ? undefined : slot };
        break;
      }
      case 'limits': {
        const kill = r.f64();
        const time = r.f64();
        entry = { op, limits: { ...(Number.isNaN(kill) ? {} : { killLimit: kill }), ...(Number.isNaN(time) ? {} : { timeLimitS: time }) } };
        break;
      }
      case 'players':
        entry = { op, ...takePlayers(r.rest()) };
        break;
      case 'state':
        entry = { op, slot: r.u8(), nowMs: r.finite('the arrival time'), ageMs: r.f64(), state: takeState(r) };
        break;
      case 'event': {
        const slot = r.u8();
        const nowMs = r.finite('the arrival time');
        const ageMs = r.f64();
        const bytes = r.rest();
        const wire = new Reader(bytes);
        let event: RemoteEvent;
        try {
          event = remoteEvent.read(wire);
        } catch (err) {
          if (err instanceof DecodeFailure) throw new BadBody(`an event the wire refuses (${err.reason})`);
          throw err;
        }
        if (wire.pos !== bytes.length) throw new BadBody('bytes after the event');
        entry = { op, slot, nowMs, ageMs, event };
        break;
      }
      case 'frame': {
        const n = r.u8();
        const inputs: [number, FrameInput][] = [];
        for (let i = 0; i < n; i++) {
          const slot = r.u8();
          const [thrust, yaw, pitch, roll] = [SIGNED(r.u8()), SIGNED(r.u8()), SIGNED(r.u8()), SIGNED(r.u8())];
          const buttons = r.u8();
          const target = r.u8();
          if ([thrust, yaw, pitch, roll].some((a) => a < -127) || buttons > 31) throw new BadBody('a frame input out of range');
          inputs.push([slot, { thrust, yaw, pitch, roll, buttons, target }]);
        }
        entry = { op, inputs };
        break;
      }
      case 'show':
        entry = { op, slot: r.u8() };
        break;
      case 'world':
      case 'from':
      case 'result':
        if (!assembled) return { ok: false, reason: `a ${op} without its parts` };
        return { ok: true, entry: { op, world: takeWorld(assembled) } };
    }
    r.end();
    return { ok: true, entry };
  } catch (err) {
    if (err instanceof BadBody) return { ok: false, reason: `${op}: ${err.message}` };
    return { ok: false, reason: `${op}: unreadable (${(err as Error).message})` };
  }
}

/** Whether a chunk of `kind` starting with `code` is one part of a large value. */
export function isLarge(kind: DemoKind, code: number | undefined): boolean {
  const op = OP_BY_CODE.get(kind * 256 + (code ?? -1));
  return op !== undefined && LARGE.has(op);
}
