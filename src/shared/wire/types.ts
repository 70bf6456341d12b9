/**
 * Wire format v1: the types every Starlane game datagram is made of.
 * Encoding lives in codec files beside this one; docs/PROTOCOL.md has the
 * byte tables. All multi-byte fields are big-endian (network byte order).
 */
import type { Quat, Vec3 } from '../sim/types';

/** First two bytes of every datagram: 'S' 'L'. */
export const WIRE_MAGIC = 0x534c;
/** Version of this format; a datagram with another version is dropped (`bad-version`). */
export const WIRE_VERSION = 15;

/** Datagram kinds (one byte). */
export const PacketType = {
  /** Header with the sender's ship state, then remote events. Sent by connected peers. */
  GameState: 1,
  /** Keeps a connected-but-not-joined node alive. */
  NodeAlive: 2,
  /** Broadcast at p2p start-up; carries the sender's connect queue as a connectQueue event. */
  ConnectRequest: 3,
  /** Slot assignment: carries the full slot table as a playerList event. */
  ConnectReply: 4,
  /** From a starting node with a higher address: "you are my slave". */
  SubdueSlave: 5,
  /** Slave → temporary master: "give me a slot", with the slave's connect queue. */
  SlotRequest: 6,
  /** The sender leaves the game (best effort; alive timeouts repair a lost one). */
  Disconnect: 7,
  /** Answer to a connect request when every slot is taken. */
  GameFull: 8,
  /** Round-trip probe between connected peers; `gameTime` carries the sender's clock. */
  Ping: 9,
  /** Answer to a Ping; `gameTime` echoes the Ping's, so the sender measures the round trip. */
  Pong: 10,
  /**
   * Gameserver → client: other players' GameState datagrams, each inside a
   * `relayed` event. Only a Relay packet may carry `relayed` events.
   */
  Relay: 11,
  /*
   * 12 and 13 are the time-sync datagrams (src/shared/time/timeWire.ts), which
   * have their own layout after the first four bytes and never reach this codec.
   */
  /**
   * Only reliable messages and acknowledgements (the link section, wire
   * v11), when no game packet is due to carry them. `messageId` is its link's next sequence number and the ship
   * state neutral; membership logic never sees it.
   */
  Reliable: 14,
} as const;
export type PacketType = (typeof PacketType)[keyof typeof PacketType];

// Slot numbers, their limits per game kind and owner-scoped object ids: slots.ts.
export * from './slots';

/** Compact state of the sender's own ship, carried in the header of a game state (flags bit 4, wire v10). */
export interface ShipState {
  pos: Vec3;
  rot: Quat;
  vel: Vec3;
  angVel: Vec3;
  /** 0..100 */
  energy: number;
  /** 0..100 (100 = destroyed) */
  damage: number;
}

export interface PacketHeader {
  type: PacketType;
  /** Sender's slot 0..MAX_WIRE_SLOTS-1, or NO_SLOT. */
  senderSlot: number;
  /** Per-sender counter (u32, wraps); receivers drop stale and duplicate ids. */
  messageId: number;
  /**
   * Common game time in ms (u32, wraps): when the state or the events were
   * made, or a ping's stamp. Absent when undefined (flags bit 3, wire v10):
   * lockstep frames, netgame messages and reliable-only datagrams go without.
   */
  gameTime?: number;
  /** The sender is joined (its ship is in the game), not just connected. */
  joined: boolean;
  /** The sender's ship; absent when undefined (flags bit 4, wire v10): only game states of a ship carry one. */
  state?: ShipState;
  /**
   * Gameserver session token (u32) from the TCP join reply; absent when
   * undefined. Flags bit 1 says it follows the ship state. Clients put it in
   * every datagram they send to a gameserver; nobody else sends one.
   */
  token?: number;
  /** The datagram belongs to a lockstep game (flags bit 2, wire v7); absent otherwise. */
  lockstep?: true;
  /** A lockstep peer's inputs (flags bit 5, wire v10; only with `lockstep`, never with a ship state); absent otherwise. */
  inputs?: FrameInputs;
}

/** Largest datagram payload Starlane sends or accepts, in bytes (Retro Tank's 512-byte rule); the packet API's limit too (net/packetApi.ts). */
export const MAX_DATAGRAM_BYTES = 512;
/**
 * Largest Relay datagram a gameserver (or netgame server) sends its clients
 * (wire v12), in bytes: the size QUIC and WebRTC take as safe on any path
 * (1,228 with IPv4 and UDP headers, within every Internet MTU). A Relay
 * bundles other players' states, and with more of them per datagram a
 * server of a hundred players sends about half the datagrams
 * (bench:gameserver, N = 128: forward latency p99 534–981 ms → 84–212 ms).
 * Everything else, peer-to-peer and LAN traffic included, keeps
 * MAX_DATAGRAM_BYTES.
 */
export const MAX_RELAY_BYTES = 1200;
/** The largest datagram of packet type `type` (MAX_RELAY_BYTES for a Relay, else MAX_DATAGRAM_BYTES). */
export function maxDatagramBytes(type: number): number {
  return type === PacketType.Relay ? MAX_RELAY_BYTES : MAX_DATAGRAM_BYTES;
}
/** Longest chat text in UTF-8 bytes. */
export const MAX_TEXT_BYTES = 160;
/** Longest player name in characters (printable ASCII). */
export const MAX_NAME_LENGTH = 16;
/** Most entries in a connect queue. */
export const MAX_QUEUE = 16;

/**
 * A node address as the packet API serialises it (PacketApi.encodeNode):
 * [family 4|6][4 or 16 address bytes][port u16]. Opaque to everything but the
 * packet API; compared bytewise (which orders by family, address, port).
 */
export type WireAddr = Uint8Array;

export interface PlayerEntry {
  slot: number;
  addr: WireAddr;
  name: string;
  joined: boolean;
}

/**
 * Gameserver → client: one other player's GameState datagram (decoded), with
 * its slot. Only inside a Relay packet; the inner packet is a GameState
 * without a token and without `relayed` events of its own (nesting depth 1);
 * its link section, if any, holds that player's reliable messages (wire v11).
 */
export interface RelayedEvent {
  type: 'relayed';
  slot: number;
  packet: Packet;
}

/** Game events that may travel as reliable messages (see src/shared/net/reliable.ts). */
export type ReliableGameEvent = Extract<WorldMessage, { type: 'createExtra' | 'killObject' | 'sendText' | 'playerName' | 'matchState' | 'asteroidBreaks' | 'solarSystem' | 'jumpTicket' }>;
/** The game event types that are sent reliably (extras since wire v6: a lost one would be missing from a screen for its whole life). */
export const RELIABLE_EVENT_TYPES: readonly ReliableGameEvent['type'][] = ['createExtra', 'killObject', 'sendText', 'playerName', 'matchState', 'asteroidBreaks', 'solarSystem', 'jumpTicket'];

/** A reliable message: a game event with the sender's 16-bit message id for this link; the receiver acknowledges the id. */
export interface LinkedMessage {
  id: number;
  event: ReliableGameEvent;
}

/**
 * A datagram's link section (header flags bit 6, wire v11; src/shared/wire/linkSection.ts):
 * the acknowledgements of reliable messages received from the node it goes
 * to (1..MAX_ACK_IDS ids) and reliable messages for it (1..MAX_LINK_MESSAGES).
 * Each part is present only when non-empty, the section only when a part is.
 */
export interface LinkSection {
  acks?: number[];
  messages?: LinkedMessage[];
  /**
   * The low 16 bits of the message id of the newest ship state this section's
   * sender took from its receiver (wire v13): a base the receiver may build
   * partial states on (shipStateCodec.ts).
   */
  stateAck?: number;
  /** A gameserver client's acknowledgement of the Relays it took (wire v14): bases of relayed partial states. */
  relayAck?: RelayAck;
}

/**
 * Relays taken by a gameserver client: the newest one's id (low 16 bits) and
 * which of the RELAY_ACK_SPAN before it came. The server builds each player's
 * relayed state on the newest of that player's states in a Relay acknowledged.
 */
export interface RelayAck {
  newest: number;
  /** u32: bit i set when the Relay with id newest − 1 − i was taken. */
  mask: number;
}

/** Relays before the newest that one relay acknowledgement can name (its u32 mask). */
export const RELAY_ACK_SPAN = 32;

/** Most ids one link section acknowledges (31 since wire v14: the link byte's bit 5 says a relay acknowledgement follows). */
export const MAX_ACK_IDS = 31;
/** Most reliable messages in one link section (its u8 count; 512 bytes hold at most 84). */
export const MAX_LINK_MESSAGES = 255;

/** One player's line of the scoreboard in a matchState event. */
export interface ScoreEntry {
  slot: number;
  kills: number;
  deaths: number;
}

/** One asteroid break in an asteroidBreaks event: asteroid `id` broke at tick `tick` of its match. */
export interface BreakEntry {
  id: number;
  tick: number;
}

/** Most breaks one asteroidBreaks event carries (8 bytes each). */
export const MAX_BREAKS = 48;

/**
 * One pilot's input for one lockstep frame, quantised (src/shared/lockstep/input.ts):
 * thrust and the three turn axes as integers −127..127 (value × 127), the
 * buttons as bits (1 fire, 2 afterburner, 4 missile, 8 mine, 16 emp) and the
 * targeted slot (NO_SLOT for none). 6 bytes.
 */
export interface FrameInput {
  thrust: number;
  yaw: number;
  pitch: number;
  roll: number;
  buttons: number;
  target: number;
}

/** Most inputs one lockstep frame section carries. */
export const MAX_FRAME_INPUTS = 32;
/** `lockstepStatus.frame` of a node that has no world yet (it waits for a state transfer), and `checkFrame` when no hash is reported. */
export const NO_FRAME = 0xffffffff;
/** Most chunks one lockstep state transfer is split into, and most bytes a chunk carries. */
export const MAX_STATE_CHUNKS = 64;
export const STATE_CHUNK_BYTES = 400;

/**
 * A lockstep datagram's frame section (wire v10, header flags bit 5): the
 * lockstep analogue of a game state's ship — the sender's own inputs, in as
 * few bytes as a frame allows. `frame` is the low byte of the sender's
 * current frame (the receiver places it within ±127 of the frames it knows:
 * peers in one lockstep game are never further apart than the input lead);
 * its inputs are for the frames `frame + firstOffset`, … (−128..127); with
 * `noWorld` the sender has no world yet and `frame` means nothing.
 */
export interface FrameInputs {
  frame: number;
  firstOffset: number;
  noWorld: boolean;
  inputs: FrameInput[];
}

/**
 * What a lockstep peer says about itself beside its inputs (wire v10, event
 * 16; src/shared/lockstep): its current frame (the next it will step;
 * NO_FRAME without a world), the state transfer it last adopted (`epoch`),
 * its input lead in frames, the slots whose input it lacks for its current
 * frame (bit per slot), whether it waits for a state transfer (its world
 * differs from the lowest slot's), and the hash of its world at its newest
 * check frame (every 40th; NO_FRAME: none yet). Sent when any of it changes
 * and every tenth frame, not with every frame.
 */
export interface LockstepStatusEvent {
  type: 'lockstepStatus';
  frame: number;
  epoch: number;
  lead: number;
  waitingOn: number;
  needState: boolean;
  checkFrame: number;
  checkHash: string;
}

/** One chunk of a lockstep state transfer (wire v7): chunk `index` of `count` of transfer `epoch`, whose world stands at frame `frame`. */
export interface LockstepStateEvent {
  type: 'lockstepState';
  epoch: number;
  frame: number;
  index: number;
  count: number;
  data: Uint8Array;
}

/** One entry of a netgame's game-moves array (src/shared/netgame/gameMoves.ts): at `frame`, `slot`'s controls become `input` (kind 0), its ship joins (1) or leaves (2). 12 bytes. */
export interface MoveEntry {
  frame: number;
  kind: number;
  slot: number;
  input: FrameInput;
}

/** Most moves one gameMoves event carries. */
export const MAX_MOVES = 32;

/**
 * Purple Martians' netgame messages (wire v8; src/shared/netgame), with the
 * seed's names: `controlChange` (cdat) a client's new controls for a future
 * frame; `gameMoves` (sdat) the server's frame, the client's control lead, the
 * master array's end and its moves from entry `start`; `movesAck` (sdak) the
 * client's frame and the next entry it needs; `stateDiff` (stdf) one chunk
 * of the server's state at `frame` as a difference from the state at `base`
 * (NO_FRAME: the whole state); `stateAck` (stak) the client has the state
 * at `frame`; `lateControl` (serr) a control change came `late` frames too
 * late and was dropped; `netgameWelcome` (SJON) a client's slot (NO_SLOT
 * for a spectator's seat) and where it starts.
 */
export type NetgameEvent =
  | { type: 'controlChange'; frame: number; input: FrameInput }
  | { type: 'gameMoves'; serverFrame: number; controlLead: number; stamp: number; end: number; start: number; moves: MoveEntry[] }
  | { type: 'movesAck'; clientFrame: number; next: number; stamp: number }
  | { type: 'stateDiff'; base: number; frame: number; index: number; count: number; data: Uint8Array }
  | { type: 'stateAck'; frame: number; corrected: boolean }
  | { type: 'lateControl'; serverFrame: number; late: number; errors: number }
  | { type: 'netgameWelcome'; slot: number; serverFrame: number; start: number; controlLead: number; serverLead: number };

/** `matchState.msLeft` of a match without a time limit. */
export const NO_TIME_LIMIT = 0xffffffff;
/** Largest kill or death count a matchState carries (u16). */
export const MAX_SCORE = 0xffff;

/**
 * The causes a ship's own killObject may name on the wire (wire v9: one
 * byte after killerSlot, present only in the announcement of a destroyed
 * ship), code = index + 1; a cause not listed is left out. The game's
 * names for them (src/shared/game/killCause.ts checks each is a KillCause).
 */
export const WIRE_KILL_CAUSES = ['laser', 'missile', 'mine', 'emp', 'asteroid'] as const;

/**
 * The world channel (src/shared/wire/channels.ts): what game code raises
 * through the game-code queue (src/shared/net/gameCode.ts) and what a session
 * hands the game. The ten remote events of the 1998 design but the two
 * membership ones (playerList, connectQueue); `matchState` (wire v5; msPlayed
 * since v6), the match authority's word on the match: its limits, phase (0
 * playing, 1 over), the time left in ms (of the match, or to the next one when
 * over; NO_TIME_LIMIT without a time limit), the round, the ms since the round
 * began (the arena's clock), and every player's score; and `asteroidBreaks`
 * (wire v6), the authority's word on which asteroids broke at which tick of
 * match `round` (src/shared/game/arena.ts); and since v9 a killObject
 * announcing the sender's own ship may end with the weapon that destroyed it
 * (`cause`, src/shared/game/killCause.ts); and `solarSystem` (wire v15), a
 * gameserver's word on the solar system the player is in (its arena's seed,
 * asteroids, radius and energy fields, its stargates) and, after a jump,
 * where the ship arrives (`placed`: position, rotation, velocity; zeros
 * otherwise); and `jumpTicket` (wire v15), a gameserver's word that our
 * ship goes through a stargate to another server of its universe: that
 * server's address and join port, the system, the ticket to join it with,
 * and the shift from this server's game time to that one's (u32, mod 2^32).
 * `playerName` belongs here: game
 * code raises it (and it travels as a reliable message); p2p control packets
 * carry it too, beside the membership messages (see ControlPacketEvent).
 */
export type WorldMessage =
  | { type: 'createObject'; id: number; kind: number; pos: Vec3; rot: Quat; vel: Vec3 }
  | { type: 'createLaser'; id: number; pos: Vec3; vel: Vec3; ttl: number }
  | { type: 'createMissile'; id: number; pos: Vec3; vel: Vec3; targetSlot: number; ttl: number }
  | { type: 'createExtra'; id: number; kind: number; pos: Vec3 }
  | { type: 'killObject'; id: number; killerSlot: number; cause?: number }
  | { type: 'sendText'; text: string }
  | { type: 'playerName'; name: string }
  | { type: 'particleObject'; id: number; kind: number; pos: Vec3; radius: number; ttl: number }
  | { type: 'matchState'; round: number; phase: number; killLimit: number; timeLimitS: number; msLeft: number; msPlayed: number; page: number; scores: ScoreEntry[] }
  | { type: 'asteroidBreaks'; round: number; breaks: BreakEntry[] }
  | { type: 'solarSystem'; name: string; seed: number; asteroids: number; radius: number; fields: number; gates: WireStargate[]; placed: boolean; pos: Vec3; rot: Quat; vel: Vec3 }
  | { type: 'jumpTicket'; host: string; port: number; system: string; ticket: string; clockShift: number };

/** A stargate in a solarSystem event: the system it leads to, and where it stands. */
export interface WireStargate {
  to: string;
  pos: Vec3;
}
/** Most stargates a solarSystem event lists (galaxyMap.ts MAX_GATES). */
export const MAX_WIRE_GATES = 8;

/**
 * The membership channel: the slot table (`playerList`, in ConnectReply
 * packets), a starting node's connect queue (`connectQueue`, in
 * ConnectRequest and SlotRequest packets) and `playerLook` (wire v9), the
 * sender's chosen ship design and colour (src/shared/wire/shipLook.ts; 0xff
 * each: left to the slot), which only travels beside the name in p2p control
 * packets and a netgame client's alive packets; game code never raises it.
 */
export type MembershipMessage =
  | { type: 'playerList'; players: PlayerEntry[] }
  | { type: 'connectQueue'; addrs: WireAddr[] }
  | { type: 'playerLook'; design: number; colour: number };

/** What p2p start-up and control packets carry: membership messages, and the sender's name and leave reason (world messages read by the membership). */
export type ControlPacketEvent = MembershipMessage | Extract<WorldMessage, { type: 'playerName' | 'sendText' }>;

/** The lockstep channel (src/shared/lockstep): a peer's status and the chunks of a state transfer. */
export type LockstepMessage = LockstepStatusEvent | LockstepStateEvent;

/** The netgame channel (src/shared/netgame, src/node/servers/netgame). */
export type NetgameMessage = NetgameEvent;

/** The relay channel: a gameserver's `relayed` envelope (Relay packets only). */
export type RelayMessage = RelayedEvent;

/** Every event with a payload table of its own (src/shared/wire/events.ts): all but the envelopes. */
export type GameEvent = WorldMessage | MembershipMessage | LockstepMessage | NetgameMessage;

/**
 * Everything an event list may hold, the union of every channel: the game
 * events and `relayed` (only in Relay packets; the decoder guarantees it).
 * Acknowledgements and reliable messages are no events since wire v11: they
 * travel in the packet's link section.
 */
export type RemoteEvent = GameEvent | RelayMessage;

/** The game events' names (not the envelopes, which game code never raises). */
export type RemoteEventType = GameEvent['type'];

/** One datagram. */
export interface Packet {
  header: PacketHeader;
  events: RemoteEvent[];
  /** Acknowledgements and reliable messages (the header's link section, flags bit 6); absent when there are none. */
  link?: LinkSection;
}
