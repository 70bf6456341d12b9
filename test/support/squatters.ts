/**
 * The seat-squatter tests' shared rig (seatSquatters.test.ts, seatProof.test.ts):
 * TCP joins from the squatter's loopback address that never send UDP, and
 * whatever a test opens, closed after each test.
 */
import type dgram from 'node:dgram';
import { afterEach } from 'vitest';
import type { GameClient } from './gameClient';
import { LineClient } from './lineClient';

/** The address the squatter joins from. */
export const SQUATTER = '127.0.0.9';

/** What a test opens: closed (servers with 'test over') after each test. */
export interface SquatterRig<S extends { close(reason: string): Promise<unknown> }> {
  lines: LineClient[];
  games: GameClient[];
  sockets: dgram.Socket[];
  servers: S[];
  /** Joins over TCP from `from` as `name` on UDP `port`; returns the client and the first reply (an accept's four message lines read). */
  tcpJoin(tcpPort: number, from: string, name: string, port: number): Promise<{ client: LineClient; reply: string }>;
  /** `n` joins from the squatter's address that never send UDP: the accepted connections and the refusals by reply. */
  squat(tcpPort: number, n: number): Promise<{ accepted: LineClient[]; refused: Record<string, number> }>;
}

/** Registers the after-each clean-up of the file it is called in and returns the rig. */
export function squatterRig<S extends { close(reason: string): Promise<unknown> }>(): SquatterRig<S> {
  const rig: SquatterRig<S> = {
    lines: [],
    games: [],
    sockets: [],
    servers: [],
    async tcpJoin(tcpPort, from, name, port) {
      const client = await LineClient.open(tcpPort, '127.0.0.1', from);
      rig.lines.push(client);
      client.send(`version: 1.0 join me: ${name} os: squat port: ${port}`);
      const reply = await client.next();
      if (reply.startsWith('join from')) await client.take(4);
      return { client, reply };
    },
    async squat(tcpPort, n) {
      const accepted: LineClient[] = [];
      const refused: Record<string, number> = {};
      for (let i = 0; i < n; i++) {
        const { client, reply } = await rig.tcpJoin(tcpPort, SQUATTER, `squat${i}`, 20_000 + i);
        if (reply.startsWith('join from')) accepted.push(client);
        else refused[reply] = (refused[reply] ?? 0) + 1;
      }
      return { accepted, refused };
    },
  };
  afterEach(async () => {
    for (const l of rig.lines.splice(0)) l.socket.destroy();
    for (const g of rig.games.splice(0)) g.close();
    for (const s of rig.sockets.splice(0)) s.close();
    await Promise.all(rig.servers.splice(0).map((s) => s.close('test over')));
  });
  return rig;
}
