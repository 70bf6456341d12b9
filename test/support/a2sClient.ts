/**
 * A small A2S client for the tests, written from the published format
 * (Valve's "Server queries" page), not from the server's encoder: it sends
 * a query from its own UDP socket, takes the challenge when one comes and
 * asks again with it, and reads the answers field by field.
 */
import dgram from 'node:dgram';

export const INFO_REQUEST = Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff, 0x54]), Buffer.from('Source Engine Query\0', 'latin1')]);

/** A2S_PLAYER or A2S_RULES ('U' or 'V') with `challenge` (−1 asks for one). */
export function challengedRequest(kind: 'U' | 'V', challenge: number): Buffer {
  const b = Buffer.from([0xff, 0xff, 0xff, 0xff, kind.charCodeAt(0), 0, 0, 0, 0]);
  b.writeInt32LE(challenge, 5);
  return b;
}

/** A2S_INFO with `challenge` appended. */
export function infoRequest(challenge?: number): Buffer {
  if (challenge === undefined) return INFO_REQUEST;
  const c = Buffer.alloc(4);
  c.writeInt32LE(challenge, 0);
  return Buffer.concat([INFO_REQUEST, c]);
}

/** Reads an A2S answer field by field. */
export class Reader {
  at = 0;
  constructor(readonly b: Buffer) {}
  u8(): number {
    return this.b.readUInt8(this.at++);
  }
  i16(): number {
    const v = this.b.readInt16LE(this.at);
    this.at += 2;
    return v;
  }
  i32(): number {
    const v = this.b.readInt32LE(this.at);
    this.at += 4;
    return v;
  }
  f32(): number {
    const v = this.b.readFloatLE(this.at);
    this.at += 4;
    return v;
  }
  str(): string {
    const end = this.b.indexOf(0, this.at);
    if (end < 0) throw new Error('string without its zero byte');
    const s = this.b.toString('utf8', this.at, end);
    this.at = end + 1;
    return s;
  }
  get left(): number {
    return this.b.length - this.at;
  }
}

export class A2sClient {
  private readonly replies: Buffer[] = [];
  private waiting: ((b: Buffer) => void) | null = null;

  private constructor(readonly socket: dgram.Socket, readonly port: number) {
    socket.on('message', (msg) => {
      const w = this.waiting;
      if (w) {
        this.waiting = null;
        w(msg);
      } else this.replies.push(msg);
    });
  }

  static async open(serverPort: number, local = '127.0.0.1'): Promise<A2sClient> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((r) => socket.bind(0, local, () => r()));
    return new A2sClient(socket, serverPort);
  }

  /** Sends `request` and waits for the next datagram back (fails after `ms`). */
  async ask(request: Buffer, ms = 5000): Promise<Buffer> {
    const queued = this.replies.shift();
    if (queued) return queued;
    const reply = new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        reject(new Error('no A2S reply'));
      }, ms);
      this.waiting = (b) => {
        clearTimeout(timer);
        resolve(b);
      };
    });
    this.socket.send(request, this.port, '127.0.0.1');
    return reply;
  }

  /** Sends `request` without waiting for an answer. */
  send(request: Buffer): void {
    this.socket.send(request, this.port, '127.0.0.1');
  }

  /** The challenge a 9-byte S2C_CHALLENGE carries. */
  static challengeOf(b: Buffer): number {
    if (b.length !== 9 || b.readInt32LE(0) !== -1 || b[4] !== 0x41) throw new Error(`not a challenge: ${b.toString('hex')}`);
    return b.readInt32LE(5);
  }

  close(): void {
    this.socket.close();
  }
}
