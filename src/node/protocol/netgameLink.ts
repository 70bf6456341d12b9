/**
 * A player's side of a netgame (`protocol netgame`), inside the netgame
 * protocol (netgame.ts), which joins the server over TCP (serverClient.ts)
 * exactly as at a gameserver and routes every datagram through the session
 * pipeline to the server with the session token. This holds the pure
 * NetgameClient: the server's messages (the outer events of its Relay
 * packets) go in, its own go out as GameState packets; it runs the game
 * shown (a FrameSync on the GameDriver), reports a world hash every 40
 * frames, and gives `players` and `netgraph` their netgame figures. When the
 * server activates us (the sync gate: our ship enters) the protocol hears of
 * it, so the slot table shows us playing only from then.
 */
import { hashWorld } from '../../shared/game/hash';
import type { SteppedFrame } from '../../shared/game/frameSync';
import { HASH_EVERY } from '../../shared/lockstep/config';
import { NetgameClient, type NetgameClientStats } from '../../shared/netgame/client';
import type { ProtocolContext } from '../../shared/protocol/protocol';
import type { ShipInput } from '../../shared/sim/types';
import { NO_SLOT, type Packet } from '../../shared/wire/types';
import { isNetgameServerMessage, type NetgameClientMessage } from '../../shared/wire/channels';
import { zlibPacker } from '../lockstep/zlibPacker';

/** What the netgame needs from the protocol around it. */
export interface NetgameLinkHooks {
  /** Sends our messages to the server (one datagram). */
  send(events: NetgameClientMessage[]): void;
  /** The players whose ships are in the game now (after every tick that stepped): the slot table shows them joined. */
  roster(slots: ReadonlySet<number>): void;
  /** A player's name for console lines. */
  nameOf(slot: number): string;
  /** Our round trip to the server (the session's pings), null before measured. */
  rttMs(): number | null;
  /** The server activated us: our ship is in the game. */
  activated(): void;
}

export class NetgameLink {
  readonly client: NetgameClient;
  private lateShown = 0;

  constructor(
    private readonly ctx: ProtocolContext,
    private readonly hooks: NetgameLinkHooks,
  ) {
    this.client = new NetgameClient({
      send: hooks.send,
      rttMs: hooks.rttMs,
      packer: zlibPacker(),
      notify: (n) => {
        if (n.kind === 'joined') ctx.print(`in the netgame as slot ${n.slot} from frame ${n.frame}`);
        else if (n.kind === 'activated') {
          ctx.print(`the server activated you at frame ${n.frame}: your ship is in the game`);
          hooks.activated();
        } else if (n.kind === 'corrected') ctx.print(`state corrected by the server at frame ${n.frame} (${n.framesStepped} frames stepped again)`);
        else if (n.kind === 'late' && n.errors >= this.lateShown * 2 + 1) {
          // Said for the 1st, 3rd, 7th… late change, not for every one.
          this.lateShown = n.errors;
          ctx.print(`a control change reached the server ${n.late} frames late and was dropped (${n.errors} so far)`);
        }
      },
    });
    ctx.game.attachSync?.({ tick: (input, at) => this.tick(input, at) });
  }

  /** The server's netgame messages in a Relay packet's outer event list (wire/channels.ts: what a netgame server sends). */
  receive(packet: Packet): void {
    const now = this.ctx.game.now();
    for (const ev of packet.events) if (isNetgameServerMessage(ev)) this.client.receive(ev, now);
  }

  /** The game stops showing the netgame (disconnect, protocol switch). */
  close(): void {
    this.ctx.game.attachSync?.(null);
  }

  stats(): NetgameClientStats {
    return this.client.stats();
  }

  /** One line of figures (`players`, `netgraph`). */
  summary(): string {
    const s = this.client.stats();
    const diff = s.lastDiff ? `${s.lastDiff.bytes} B in ${s.lastDiff.chunks} datagrams` : '-';
    const waiting = s.frame !== null && !s.active ? ', waiting for the server to activate you' : '';
    return `frame ${s.frame ?? '-'}, server ${s.serverAhead ?? '-'} frames ahead, control lead ${s.controlLead}, control changes ${s.controlChanges} (${s.lateChanges} late), last state difference ${diff}, corrections ${s.corrections}${waiting}`;
  }

  /** The kill feed, as in every game. */
  private killLine(victim: number, killer: number): void {
    const name = this.hooks.nameOf;
    this.ctx.print(killer < 0 || killer === NO_SLOT || killer === victim ? `${name(victim)} was destroyed` : `${name(victim)} was shot down by ${name(killer)}`);
  }

  private tick(input: ShipInput, at: number): { frames: SteppedFrame[]; slot: number } | null {
    const slot = this.client.slot;
    if (slot === null || !this.client.state) return null;
    const frames = this.client.tick(input, at);
    for (const f of frames) {
      if (f.world.tick % HASH_EVERY === 0) this.ctx.frameHash?.({ frame: f.world.tick, hash: hashWorld(f.world), epoch: 0 });
      for (const e of f.events) if (e.type === 'destroyed') this.killLine(e.slot, e.killer);
    }
    const last = frames[frames.length - 1];
    if (last) this.hooks.roster(new Set(last.world.ships.map((s) => s.slot)));
    return { frames, slot };
  }
}
