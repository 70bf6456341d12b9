/**
 * The channels of the wire's remote events (issue 26): every event type
 * belongs to exactly one, and each protocol sees only its own channel's
 * messages. Types only: the codec keeps its one table of codes
 * (events.ts). Acknowledgements and reliable messages are no channel of
 * events since wire v11: they travel in a datagram's link section
 * (`Packet.link`, src/shared/wire/linkSection.ts), read and written by the
 * link layer (src/shared/net/linkLayer.ts, reliable.ts) and the servers' links.
 *
 * - `world`: what game code raises (src/shared/net/gameCode.ts) and a
 *   session hands the game (src/shared/session/deliveries.ts): creations,
 *   kills, particles, chat, the player's name, the match and asteroid breaks.
 * - `membership`: the slot table, a connect queue and a ship look, read by
 *   the p2p core (src/shared/p2p) and the managed peer (src/shared/session).
 * - `lockstep`: a lockstep peer's status and state-transfer chunks (src/shared/lockstep).
 * - `netgame`: Purple Martians' messages (src/shared/netgame, src/node/servers/netgame).
 * - `relay`: a gameserver's `relayed` envelope (Relay packets only).
 */
import type { LockstepMessage, MembershipMessage, NetgameMessage, RelayMessage, RemoteEvent, WorldMessage } from './types';

export type { ControlPacketEvent, LockstepMessage, MembershipMessage, NetgameMessage, RelayMessage, WorldMessage } from './types';

/** Each channel's message union. */
export interface ChannelMessages {
  world: WorldMessage;
  membership: MembershipMessage;
  lockstep: LockstepMessage;
  netgame: NetgameMessage;
  relay: RelayMessage;
}

export type Channel = keyof ChannelMessages;

/** The channel of every remote event type; an event type without one (or with two) fails typecheck. */
export const EVENT_CHANNELS = {
  createObject: 'world',
  createLaser: 'world',
  createMissile: 'world',
  createExtra: 'world',
  killObject: 'world',
  sendText: 'world',
  playerName: 'world',
  particleObject: 'world',
  matchState: 'world',
  asteroidBreaks: 'world',
  solarSystem: 'world',
  jumpTicket: 'world',
  playerList: 'membership',
  connectQueue: 'membership',
  playerLook: 'membership',
  lockstepStatus: 'lockstep',
  lockstepState: 'lockstep',
  controlChange: 'netgame',
  gameMoves: 'netgame',
  movesAck: 'netgame',
  stateDiff: 'netgame',
  stateAck: 'netgame',
  lateControl: 'netgame',
  netgameWelcome: 'netgame',
  relayed: 'relay',
} as const satisfies { readonly [K in RemoteEvent['type']]: Channel };

type TableTypesOf<C extends Channel> = { [K in keyof typeof EVENT_CHANNELS]: (typeof EVENT_CHANNELS)[K] extends C ? K : never }[keyof typeof EVENT_CHANNELS];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The table and the unions agree: a type moved between unions but not in the table (or the reverse) fails typecheck. */
const TABLE_MATCHES_UNIONS: { readonly [C in Channel]: Same<TableTypesOf<C>, ChannelMessages[C]['type']> } = {
  world: true,
  membership: true,
  lockstep: true,
  netgame: true,
  relay: true,
};
void TABLE_MATCHES_UNIONS;

/**
 * What a game state carries for the protocol above a membership (P2pPeer,
 * ManagedPeer): the game's world messages, a lockstep peer's, a netgame
 * client's. The membership reads only its own control packets; the session
 * adds the link section as a datagram leaves.
 */
export type GameStateMessage = WorldMessage | LockstepMessage | NetgameMessage;

/** The channels, in the order of ChannelMessages. */
export const CHANNELS: readonly Channel[] = ['world', 'membership', 'lockstep', 'netgame', 'relay'];

/** The channel `event` belongs to. */
export function channelOf(event: RemoteEvent): Channel {
  return EVENT_CHANNELS[event.type];
}

/** Whether `event` belongs to channel `channel`. */
export function inChannel<C extends Channel>(channel: C, event: RemoteEvent): event is ChannelMessages[C] {
  return EVENT_CHANNELS[event.type] === channel;
}

export const isWorldMessage = (event: RemoteEvent): event is WorldMessage => inChannel('world', event);
export const isMembershipMessage = (event: RemoteEvent): event is MembershipMessage => inChannel('membership', event);
export const isLockstepMessage = (event: RemoteEvent): event is LockstepMessage => inChannel('lockstep', event);
export const isNetgameMessage = (event: RemoteEvent): event is NetgameMessage => inChannel('netgame', event);
export const isRelayMessage = (event: RemoteEvent): event is RelayMessage => inChannel('relay', event);

/** Who sends each netgame message: the server (moves, states, late notices, the welcome) or a client (controls and acknowledgements). */
export const NETGAME_SENDERS = {
  controlChange: 'client',
  movesAck: 'client',
  stateAck: 'client',
  gameMoves: 'server',
  stateDiff: 'server',
  lateControl: 'server',
  netgameWelcome: 'server',
} as const satisfies { readonly [K in NetgameMessage['type']]: 'client' | 'server' };

/** What a netgame server sends its clients. */
export type NetgameServerMessage = Extract<NetgameMessage, { type: { [K in keyof typeof NETGAME_SENDERS]: (typeof NETGAME_SENDERS)[K] extends 'server' ? K : never }[keyof typeof NETGAME_SENDERS] }>;
/** What a netgame client sends its server. */
export type NetgameClientMessage = Exclude<NetgameMessage, NetgameServerMessage>;

/** A netgame message a server sends (what a netgame client takes). */
export function isNetgameServerMessage(event: RemoteEvent): event is NetgameServerMessage {
  return isNetgameMessage(event) && NETGAME_SENDERS[event.type] === 'server';
}

/** A netgame message a client sends (what a netgame server takes). */
export function isNetgameClientMessage(event: RemoteEvent): event is NetgameClientMessage {
  return isNetgameMessage(event) && NETGAME_SENDERS[event.type] === 'client';
}
