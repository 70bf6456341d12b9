/**
 * A port mapping such as a NAT or a container runtime makes
 * (`docker run -p 7000:6522/udp`), on loopback: datagrams to its public port
 * go to the server's port from a socket of their own per sender (so the
 * server sees each client as another source, as behind a NAT), and the
 * server's answers go back to that sender from the public port. It stands in
 * for the network between players and a server whose port is mapped; the
 * thing under test is what the server tells its players.
 */
import dgram from 'node:dgram';

export class UdpNat {
  /** Datagrams carried each way. */
  readonly carried = { in: 0, out: 0 };
  private readonly inside = new Map<string, dgram.Socket>();

  /** Where datagrams go (set once the server listens: it is told the public port first). */
  target: { host: string; port: number } | null = null;

  private constructor(private readonly outside: dgram.Socket) {
    outside.on('message', (msg, from) => {
      const target = this.target;
      if (!target) return;
      const key = `${from.address}:${from.port}`;
      let up = this.inside.get(key);
      if (!up) {
        const socket = dgram.createSocket('udp4');
        socket.on('message', (reply) => {
          this.carried.out += 1;
          outside.send(reply, from.port, from.address);
        });
        socket.on('error', () => undefined);
        socket.bind(0, '127.0.0.1');
        this.inside.set(key, socket);
        up = socket;
      }
      this.carried.in += 1;
      up.send(msg, target.port, target.host);
    });
    outside.on('error', () => undefined);
  }

  /** A mapping from a free public port on 127.0.0.1 (to `target`, once set). */
  static async start(): Promise<UdpNat> {
    const outside = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => outside.bind(0, '127.0.0.1', () => resolve()));
    return new UdpNat(outside);
  }

  /** The public port players send to. */
  get port(): number {
    return this.outside.address().port;
  }

  close(): void {
    for (const s of this.inside.values()) s.close();
    this.inside.clear();
    this.outside.close();
  }
}
