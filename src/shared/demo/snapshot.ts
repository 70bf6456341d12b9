/**
 * A snapshot of a game in memory, as bytes: the graph of values a
 * ClientGame holds (plain objects, arrays, maps, sets, byte arrays, and the
 * instances of the game's own classes, named in a registry), every number
 * exact to the bit (−0 and NaN included), shared and cyclic references kept
 * as they were, frozen objects frozen again. A client demo starts with one,
 * so its journal replays on the very game the recording began with
 * (docs/DEMO.md). It is memory, not a stable format: a snapshot is read
 * only by the Starlane version that wrote it.
 *
 * Reading is untrusted like every demo byte: `decodeSnapshot` checks every
 * tag, length, class name and reference, bounds the depth and the number of
 * values, and never throws.
 */

/** Classes a snapshot may hold, by name; `omit`: fields of that class left out (read back as null). */
export interface SnapshotClasses {
  readonly classes: ReadonlyMap<string, { readonly prototype: object }>;
  readonly omit?: ReadonlyMap<string, readonly string[]>;
}

/** Most nested containers a snapshot holds. */
export const MAX_SNAPSHOT_DEPTH = 64;
/** Most values a snapshot holds (a crowded game holds tens of thousands). */
export const MAX_SNAPSHOT_VALUES = 4_000_000;

const T = { undef: 0, nul: 1, no: 2, yes: 3, f64: 4, i32: 5, str: 6, arr: 7, obj: 8, map: 9, set: 10, cls: 11, ref: 12, frozen: 13, bytes: 14 } as const;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A snapshot cannot be made: a function, a class not in the registry, a symbol… */
export class SnapshotError extends Error {}

class Out {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  at = 0;

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.at + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(v: number): void {
    this.room(1);
    this.buf[this.at++] = v;
  }
  u16(v: number): void {
    this.room(2);
    this.view.setUint16(this.at, v);
    this.at += 2;
  }
  u32(v: number): void {
    this.room(4);
    this.view.setUint32(this.at, v);
    this.at += 4;
  }
  i32(v: number): void {
    this.room(4);
    this.view.setInt32(this.at, v);
    this.at += 4;
  }
  f64(v: number): void {
    this.room(8);
    this.view.setFloat64(this.at, v);
    this.at += 8;
  }
  raw(b: Uint8Array): void {
    this.u32(b.length);
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }
  str(s: string): void {
    this.raw(utf8.encode(s));
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.at);
  }
}

/** The bytes of `root` (throws SnapshotError for what a snapshot cannot hold). */
export function encodeSnapshot(root: unknown, registry: SnapshotClasses): Uint8Array {
  const names = [...registry.classes.keys()].sort();
  const indexOf = new Map<object, number>();
  names.forEach((n, i) => indexOf.set((registry.classes.get(n) as { prototype: object }).prototype, i));
  const out = new Out();
  out.u16(names.length);
  for (const n of names) out.str(n);
  const ids = new Map<object, number>();
  const put = (v: unknown, path: string, depth: number): void => {
    if (depth > MAX_SNAPSHOT_DEPTH) throw new SnapshotError(`${path}: nested more than ${MAX_SNAPSHOT_DEPTH} deep`);
    if (v === undefined) return out.u8(T.undef);
    if (v === null) return out.u8(T.nul);
    if (v === false) return out.u8(T.no);
    if (v === true) return out.u8(T.yes);
    if (typeof v === 'number') {
      if (Number.isInteger(v) && v >= -0x8000_0000 && v <= 0x7fff_ffff && !Object.is(v, -0)) {
        out.u8(T.i32);
        return out.i32(v);
      }
      out.u8(T.f64);
      return out.f64(v);
    }
    if (typeof v === 'string') {
      out.u8(T.str);
      return out.str(v);
    }
    if (typeof v !== 'object') throw new SnapshotError(`${path}: a ${typeof v} cannot be in a snapshot`);
    const seen = ids.get(v);
    if (seen !== undefined) {
      out.u8(T.ref);
      return out.u32(seen);
    }
    ids.set(v, ids.size);
    if (Object.isFrozen(v)) out.u8(T.frozen);
    if (v instanceof Uint8Array) {
      out.u8(T.bytes);
      return out.raw(v);
    }
    if (Array.isArray(v)) {
      out.u8(T.arr);
      out.u32(v.length);
      v.forEach((x, i) => put(x, `${path}[${i}]`, depth + 1));
      return;
    }
    if (v instanceof Map) {
      out.u8(T.map);
      out.u32(v.size);
      for (const [k, x] of v) {
        put(k, `${path}.key`, depth + 1);
        put(x, `${path}[${String(k)}]`, depth + 1);
      }
      return;
    }
    if (v instanceof Set) {
      out.u8(T.set);
      out.u32(v.size);
      for (const x of v) put(x, `${path}{}`, depth + 1);
      return;
    }
    const proto = Object.getPrototypeOf(v) as object | null;
    let fields = Object.keys(v);
    if (proto === Object.prototype) out.u8(T.obj);
    else {
      const index = proto === null ? undefined : indexOf.get(proto);
      const name = (proto as { constructor?: { name?: string } } | null)?.constructor?.name ?? 'null prototype';
      if (index === undefined) throw new SnapshotError(`${path}: an instance of ${name}, a class the snapshot does not know`);
      const omitted = registry.omit?.get(names[index] as string);
      if (omitted) fields = fields.filter((f) => !omitted.includes(f));
      out.u8(T.cls);
      out.u16(index);
    }
    out.u32(fields.length);
    for (const f of fields) {
      out.str(f);
      put((v as Record<string, unknown>)[f], `${path}.${f}`, depth + 1);
    }
  };
  put(root, 'game', 0);
  return out.done();
}

export type SnapshotRead = { ok: true; value: unknown } | { ok: false; reason: string };

class Bad extends Error {}

/** The value in `bytes`, or why not: never throws. */
export function decodeSnapshot(bytes: Uint8Array, registry: SnapshotClasses): SnapshotRead {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n: number): void => {
    if (at + n > bytes.length) throw new Bad(`it ends ${at + n - bytes.length} bytes early`);
  };
  const u8 = (): number => (need(1), bytes[at++] as number);
  const u16 = (): number => (need(2), (at += 2), view.getUint16(at - 2));
  const u32 = (): number => (need(4), (at += 4), view.getUint32(at - 4));
  const raw = (): Uint8Array => {
    const n = u32();
    need(n);
    at += n;
    return bytes.subarray(at - n, at);
  };
  const str = (): string => {
    try {
      return fromUtf8.decode(raw());
    } catch {
      throw new Bad('a string that is not UTF-8');
    }
  };
  const refs: object[] = [];
  let values = 0;
  try {
    const count = u16();
    const protos: object[] = [];
    const omits: (readonly string[])[] = [];
    for (let i = 0; i < count; i++) {
      const name = str();
      const cls = registry.classes.get(name);
      if (!cls) throw new Bad(`a class ${JSON.stringify(name.slice(0, 40))} this Starlane does not have`);
      protos.push(cls.prototype);
      omits.push(registry.omit?.get(name) ?? []);
    }
    const take = (depth: number): unknown => {
      if (depth > MAX_SNAPSHOT_DEPTH) throw new Bad(`nested more than ${MAX_SNAPSHOT_DEPTH} deep`);
      if (++values > MAX_SNAPSHOT_VALUES) throw new Bad(`more than ${MAX_SNAPSHOT_VALUES} values`);
      let tag = u8();
      const frozen = tag === T.frozen;
      if (frozen) tag = u8();
      const made = (o: object): object => {
        refs.push(o);
        return o;
      };
      const fill = <O extends object>(o: O): O => (frozen ? Object.freeze(o) : o);
      switch (tag) {
        case T.undef:
          return undefined;
        case T.nul:
          return null;
        case T.no:
          return false;
        case T.yes:
          return true;
        case T.i32:
          return (need(4), (at += 4), view.getInt32(at - 4));
        case T.f64:
          return (need(8), (at += 8), view.getFloat64(at - 8));
        case T.str:
          return str();
        case T.ref: {
          const id = u32();
          const o = refs[id];
          if (o === undefined) throw new Bad(`a reference to value ${id}, not read yet`);
          return o;
        }
        case T.bytes:
          return fill(made(raw().slice()));
        case T.arr: {
          const n = u32();
          if (n > bytes.length - at) throw new Bad(`a list of ${n} in ${bytes.length - at} bytes`);
          const a = made([]) as unknown[];
          for (let i = 0; i < n; i++) a.push(take(depth + 1));
          return fill(a);
        }
        case T.map: {
          const n = u32();
          const m = made(new Map()) as Map<unknown, unknown>;
          for (let i = 0; i < n; i++) {
            const k = take(depth + 1);
            m.set(k, take(depth + 1));
          }
          return fill(m);
        }
        case T.set: {
          const n = u32();
          const s = made(new Set()) as Set<unknown>;
          for (let i = 0; i < n; i++) s.add(take(depth + 1));
          return fill(s);
        }
        case T.obj:
        case T.cls: {
          const index = tag === T.cls ? u16() : -1;
          const proto = index < 0 ? Object.prototype : protos[index];
          if (proto === undefined) throw new Bad(`class ${index} of ${protos.length}`);
          const o = made(Object.create(proto) as object) as Record<string, unknown>;
          const n = u32();
          for (let i = 0; i < n; i++) {
            const key = str();
            if (key === '__proto__' || key === 'constructor') throw new Bad(`a field named ${key}`);
            o[key] = take(depth + 1);
          }
          for (const f of index < 0 ? [] : (omits[index] ?? [])) o[f] = null;
          return fill(o);
        }
        default:
          throw new Bad(`tag ${tag} at byte ${at - 1}`);
      }
    };
    const value = take(0);
    if (at !== bytes.length) throw new Bad(`${bytes.length - at} bytes after its end`);
    return { ok: true, value };
  } catch (err) {
    if (err instanceof Bad) return { ok: false, reason: err.message };
    // A stack the depth bound did not foresee, or memory: still a reason, never a throw.
    return { ok: false, reason: `unreadable (${(err as Error).message})` };
  }
}
