/**
 * What a session hands its game (pipeline.ts): other players' ship states
 * (checked for plausibility and aged by the common clock), their game events
 * (chat and kills also as notices for the console), reliable messages once,
 * and the slot table with names and looks. Of the events only the world
 * channel's (wire/channels.ts) reach the game. The last name a slot had is
 * kept, so a line about a player who just left still names them.
 */
import type { NetPlayer } from '../net/gameLink';
import { SHIP_LOCAL_ID, playerNameOf } from '../net/gameCode';
import type { ProtocolGame } from '../protocol/protocol';
import { NO_SLOT, objectId, type Packet, type ReliableGameEvent, type RemoteEvent } from '../wire/types';
import { isWorldMessage } from '../wire/channels';
import { AUTO_LOOK, sameLook } from '../wire/shipLook';
import type { AddressBook } from './addressBook';
import type { Membership } from './membership';
import type { SessionNotice } from './notices';
import type { PeerPlausibility } from './plausibility';
import type { SessionClock } from './sessionClock';

/** What the deliveries read. */
export interface DeliveryParts {
  game: ProtocolGame;
  member: Membership;
  clock: SessionClock;
  plausibility: PeerPlausibility;
  addresses: AddressBook;
  notify(notice: SessionNotice): void;
  /** The status line shown with the slot table. */
  status(): string;
  now(): number;
}

export class GameDeliveries {
  private readonly names = new Map<number, string>();

  constructor(private readonly d: DeliveryParts) {}

  /** A fresh game state from `slot`: its ship state (when it carries one) and its events go to the game. */
  gameState(slot: number, packet: Packet): void {
    const { game, clock, plausibility } = this.d;
    const now = this.d.now();
    const { header } = packet;
    const { gameTime } = header;
    // A lockstep frame or netgame message carries no ship (wire v10): only its events count.
    const state = header.joined && header.state && gameTime !== undefined ? plausibility.check(slot, header.state, gameTime, clock.commonTime(now)) : null;
    if (state && gameTime !== undefined) game.deliver({ kind: 'state', slot, gameTime, state, ...clock.ageOf(gameTime, now) });
    for (const event of packet.events) this.event(slot, event, gameTime);
  }

  /** A reliable message from `slot`, delivered once. */
  reliable(slot: number, event: ReliableGameEvent, stamp: number | undefined): void {
    if (event.type === 'playerName') {
      this.d.member.heardName?.(slot, event.name);
      this.players();
    } else this.event(slot, event, stamp);
  }

  /** One event from `slot`: a world message to the game (chat and kills also as notices), aged by the common-time `stamp` of its packet; other channels' messages are not the game's. */
  event(slot: number, event: RemoteEvent, stamp: number | undefined): void {
    const { game, notify } = this.d;
    if (event.type === 'sendText') {
      // From no player's slot: the server's own word (a refused jump).
      const from = slot === NO_SLOT ? 'server' : this.nameOf(slot);
      notify({ kind: 'chat', from, text: event.text });
      game.deliver({ kind: 'chat', slot, from, text: event.text });
    } else if (event.type === 'playerName') {
      this.players();
    } else if (isWorldMessage(event)) {
      if (event.type === 'solarSystem' && slot === NO_SLOT) notify({ kind: 'system', name: event.name, jumped: event.placed, gates: event.gates });
      if (event.type === 'jumpTicket' && slot === NO_SLOT) notify({ kind: 'jump', host: event.host, port: event.port, system: event.system, ticket: event.ticket, clockShift: event.clockShift });
      if (event.type === 'killObject' && event.id === objectId(slot, SHIP_LOCAL_ID)) {
        notify({ kind: 'killed', victim: this.nameOf(slot), killer: event.killerSlot === NO_SLOT ? null : this.nameOf(event.killerSlot) });
      }
      const age = stamp === undefined ? {} : this.d.clock.ageOf(stamp, this.d.now());
      game.deliver({ kind: 'event', slot, event, ...age });
    }
  }

  /** Sends the slot table to the game view. */
  players(): void {
    const { member, plausibility, addresses } = this.d;
    plausibility.retain(new Set(member.players().map((p) => p.slot)));
    const mine = member.slot();
    const players: NetPlayer[] = member.players().map((p) => {
      this.names.set(p.slot, p.name);
      const look = member.lookOf?.(p.slot) ?? AUTO_LOOK;
      const player: NetPlayer = { slot: p.slot, name: p.name, joined: p.joined, local: p.slot === mine, address: addresses.text(p.addr) };
      if (!sameLook(look, AUTO_LOOK)) player.look = look;
      return player;
    });
    this.d.game.deliver({ kind: 'players', players, localSlot: mine, status: this.d.status() });
  }

  /** The name of the player in `slot` (or the last name it had here). */
  nameOf(slot: number): string {
    const name = playerNameOf(this.d.member.players(), slot);
    return name === `slot ${slot}` ? (this.names.get(slot) ?? name) : name;
  }
}
