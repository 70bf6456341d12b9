/**
 * The Node session adapter (GameSession, as serverClient sets it up for a
 * server's game) on one end of a memory LAN and a virtual clock, with a
 * ScriptedGame, its console lines handed to `print` and its commands kept;
 * and a stand-in gameserver for it to join, freezable.
 */
import { GameSession } from '../../src/node/protocol/gameSession';
import type { CommandDef } from '../../src/shared/console/registry';
import type { PacketApi } from '../../src/shared/net/packetApi';
import type { ProtocolContext } from '../../src/shared/protocol/protocol';
import { ManagedPeer } from '../../src/shared/session/managedPeer';
import { answerTimeRequest, isTimeDatagram } from '../../src/shared/time';
import { encodePacket } from '../../src/shared/wire/codec';
import { NO_SLOT, PacketType, type ShipState, type WireAddr } from '../../src/shared/wire/types';
import { MemoryNet } from './memoryNet';
import { runUntil, ScriptedGame } from './sessionRig';
import type { VirtualClock } from './virtualClock';

export interface NodeSession {
  session: GameSession<ManagedPeer>;
  game: ScriptedGame;
  /** The commands the session added, by name. */
  commands: Map<string, CommandDef>;
  /** Stops the session. */
  stop(): void;
}

/** A started session named `name` on `end`; `server`, when given, is the address of the server it plays through. */
export function nodeSession(clock: VirtualClock, end: PacketApi, name: string, print: (line: string) => void, server?: WireAddr): NodeSession {
  const game = new ScriptedGame(name, clock);
  const commands = new Map<string, CommandDef>();
  const ctx: ProtocolContext = {
    packetApi: end,
    print,
    addCommand: (def) => (commands.set(def.name, def), () => commands.delete(def.name)),
    game,
    discoveryPort: 6526,
  };
  const session: GameSession<ManagedPeer> = new GameSession(ctx, {
    status: () => 'test',
    ...(server === undefined ? {} : { server: () => server }),
    // What the server protocols do with the membership's notices (its game states go to the game through the session).
    member: (t) => new ManagedPeer(end.encodeNode(end.localNode()), name, (to, p) => t.send(to, p), () => session.pipeline.deliverPlayers()),
    timers: clock,
  });
  const stop = session.start({ connect: () => null, disconnect: () => null });
  return { session, game, commands, stop };
}

export interface StandInServer {
  /** While true the server sends nothing and answers nothing. */
  frozen: boolean;
}

export interface JoinedSession extends NodeSession {
  server: StandInServer;
}

/**
 * A session ('pilot') joined as slot 0 to a stand-in gameserver on a memory
 * LAN (5 ms) that does what the real one does each second: a Ping (carrying
 * `pingState`, when given) with `token`, and answers to time-sync requests.
 * Returns once the session is joined.
 */
export function joinedToStandInServer(clock: VirtualClock, token: number, print: (line: string) => void, pingState?: ShipState): JoinedSession {
  const net = new MemoryNet(clock, 5);
  const serverEnd = net.add();
  const end = net.add();
  const serverAddr = serverEnd.encodeNode(serverEnd.localNode());
  const server: StandInServer = { frozen: false };
  let id = 1;
  serverEnd.onPacket(({ from, data }) => {
    if (server.frozen || !isTimeDatagram(data)) return;
    const reply = answerTimeRequest(data, clock.now());
    if (reply) serverEnd.send(from, reply);
  });
  clock.setInterval(() => {
    if (server.frozen) return;
    const header = { type: PacketType.Ping, senderSlot: NO_SLOT, messageId: id++, gameTime: clock.now(), joined: false, ...(pingState ? { state: pingState } : {}), token };
    serverEnd.send(end.localNode(), encodePacket({ header, events: [] }));
  }, 1000);
  const joined = nodeSession(clock, end, 'pilot', print, serverAddr);
  const { session } = joined;
  // What serverClient does with the accept line of a gameserver.
  session.member.adopt(0, { server: serverAddr, token });
  session.pipeline.clock.source = () => serverAddr;
  session.pipeline.requestJoin();
  runUntil(clock, 'joined', () => session.member.players()[0]?.joined === true);
  return { ...joined, server };
}
