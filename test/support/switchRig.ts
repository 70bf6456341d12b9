/**
 * Three players in one test process for live protocol switching: three
 * complete hosts on loopback (the same UDP port base, so p2p and lockstep
 * discovery find all three), what each was told, and the switch itself —
 * `protocol <name>` and `connect` on each — waiting for one consistent game.
 */
import pino from 'pino';
import { createHost } from '../../src/node/host/createHost';
import type { HostService } from '../../src/node/host/hostService';
import type { HostEvent } from '../../src/shared/host/contract';
import type { NetDelivery } from '../../src/shared/net/gameLink';
import { freeUdpPorts, P2P_PORT_SPAN } from './freePort';
import { tempDir } from './testRun';
import { waitFor as until } from './waitFor';

type Table = Extract<NetDelivery, { kind: 'players' }>;

export interface SwitchPlayer {
  host: HostService;
  events: HostEvent[];
  /** Console lines, in order. */
  lines: string[];
}

/** UDP and TCP handles open in this process (to show nothing leaked). */
export function openHandles(): { udp: number; tcp: number } {
  const info = process.getActiveResourcesInfo();
  return { udp: info.filter((r) => r === 'UDPWrap').length, tcp: info.filter((r) => r === 'TCPWrap' || r === 'TCPServerWrap').length };
}

export class SwitchRig {
  private readonly since = new Map<HostService, number>();

  private constructor(readonly players: SwitchPlayer[]) {}

  static async start(names: readonly string[] = ['alpha', 'bravo', 'charlie']): Promise<SwitchRig> {
    const log = pino({ level: 'silent' });
    const base = await freeUdpPorts(P2P_PORT_SPAN);
    const players: SwitchPlayer[] = [];
    for (const name of names) {
      const host = await createHost({ shell: 'browser', appVersion: 'test', userDataDir: tempDir('switch'), clientPort: base, broadcastAddress: '127.255.255.255', lanInterfaces: [], log, onQuit: () => undefined });
      const p: SwitchPlayer = { host, events: [], lines: [] };
      host.onEvents((b) => {
        p.events.push(...b);
        for (const e of b) if (e.kind === 'console') p.lines.push(e.text);
      });
      await host.command(`name ${name}`);
      players.push(p);
    }
    return new SwitchRig(players);
  }

  /** The newest slot table `p` was given since the current switch began. */
  lastTable(p: SwitchPlayer): Table | undefined {
    for (let i = p.events.length - 1; i >= (this.since.get(p.host) ?? 0); i--) {
      const e = p.events[i] as HostEvent;
      if (e.kind === 'net' && e.delivery.kind === 'players') return e.delivery as Table;
    }
    return undefined;
  }

  /** Every player has the same table of all of them, all joined. */
  consistent(): boolean {
    const n = this.players.length;
    const tables = this.players.map((p) => this.lastTable(p));
    if (tables.some((t) => !t || t.players.length !== n || t.players.some((x) => !x.joined))) return false;
    return new Set(tables.map((t) => JSON.stringify((t as Table).players.map((x) => [x.slot, x.name])))).size === 1;
  }

  /**
   * Everyone switches to `protocol` and connects (to `target`, or on the
   * LAN, where the first player starts the game alone so the others join it
   * rather than race); resolves with the ms from the first command to one
   * consistent game.
   */
  async switchTo(protocol: string, target?: string): Promise<number> {
    const t0 = performance.now();
    for (const p of this.players) this.since.set(p.host, p.events.length);
    for (const p of this.players) {
      await p.host.command(`protocol ${protocol}`);
      await p.host.command(target ? `connect ${target}` : 'connect');
      if (!target && p === this.players[0]) await until('the first player alone in its game', () => this.lastTable(p)?.localSlot === 0);
    }
    await until(`one ${protocol} game of ${this.players.length}`, () => this.consistent());
    if (!this.players.every((p) => p.host.subsystems.describe().protocol === protocol)) throw new Error(`not every player is on ${protocol}`);
    return performance.now() - t0;
  }

  async dispose(): Promise<void> {
    for (const p of this.players) await p.host.dispose();
  }
}
