/**
 * Issue 27, more players: a gameserver seats more than 64 players (slots are
 * a byte on the wire, 0..254; `--max-players` up to 255) and every player
 * learns every score. Its match travels in score pages of 64 slots (wire
 * v12), each a reliable matchState that fits one datagram, every page of the
 * server's seats each time: deaths in slots 3 and 129 reach all 130 players,
 * on pages 0 and 2. Players join from distinct
 * loopback addresses (8 per host, the default limit), as households would.
 */
import { describe, expect, it } from 'vitest';
import { MAX_DATAGRAM_BYTES, MAX_RELAY_BYTES, NO_SLOT, objectId, type ReliableGameEvent, type ScoreEntry } from '../../src/shared/wire/types';
import { DEFAULT_MAX_PER_ADDRESS } from '../../src/node/servers/join/joinOptions';
import { GameClient } from '../support/gameClient';
import { useGameservers } from '../support/gameserverFixture';

const { server, clients } = useGameservers();

const PLAYERS = 130;
const MAX_PLAYERS = 200;

type MatchPage = Extract<ReliableGameEvent, { type: 'matchState' }>;
/** The newest page of each page number the server said to `c` (reliable messages arrive in order of their ids). */
function latestPages(c: GameClient): Map<number, MatchPage> {
  const pages = new Map<number, MatchPage>();
  for (const m of c.serverMessages()) if (m.type === 'matchState') pages.set(m.page, m);
  return pages;
}
/** Every score `c` holds from the newest pages, by slot. */
const scoresAt = (c: GameClient): Map<number, ScoreEntry> => new Map([...latestPages(c).values()].flatMap((p) => p.scores.map((s) => [s.slot, s] as const)));

describe('a gameserver for more than 64 players', () => {
  it("bundles the others' states into Relay datagrams longer than 512 bytes (up to 1,200, wire v12), which its clients take", { timeout: 30_000 }, async () => {
    const s = await server({ maxPlayers: 100 });
    const tcpPort = s.ports.tcp ?? 0;
    const pilots: GameClient[] = [];
    for (let i = 0; i < 24; i++) {
      const c = await GameClient.join({ tcpPort, name: `pilot${i}`, localAddress: `127.0.0.${2 + Math.floor(i / DEFAULT_MAX_PER_ADDRESS)}` });
      clients.push(c);
      pilots.push(c);
      c.hello();
    }
    await pilots[0]?.until(() => s.stats().clients.filter((c) => c.udp !== null).length === pilots.length, 20_000, 'every seat bound');
    // Every pilot but the watcher sends a state at once: the watcher's next relays carry 23 states.
    const [watcher, ...senders] = pilots as [GameClient, ...GameClient[]];
    for (const c of senders) c.sendState({ x: c.slot * 10, y: 0, z: 0 });
    const heardFrom = () => new Set(watcher.relayed().filter((r) => r.packet.header.state !== undefined).map((r) => r.slot));
    await watcher.until(() => heardFrom().size === senders.length, 10_000, "the watcher to hear every sender's state");
    const sizes = watcher.relays().map((r) => r.bytes);
    console.log(`24 players: the watcher got ${senders.length} states in ${sizes.length} Relay datagrams of ${sizes.join(', ')} bytes`);
    expect(Math.max(...sizes)).toBeGreaterThan(MAX_DATAGRAM_BYTES);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_RELAY_BYTES);
  });

  it('seats 130 players in slots 0..129, and deaths in slots 3 and 129 reach every player, on score pages 0 and 2', { timeout: 60_000 }, async () => {
    const s = await server({ maxPlayers: MAX_PLAYERS });
    const tcpPort = s.ports.tcp ?? 0;
    const joined: GameClient[] = [];
    for (let i = 0; i < PLAYERS; i++) {
      const c = await GameClient.join({ tcpPort, name: `pilot${i}`, localAddress: `127.0.0.${2 + Math.floor(i / DEFAULT_MAX_PER_ADDRESS)}` });
      clients.push(c);
      joined.push(c);
      c.hello();
    }
    expect(joined.map((c) => c.slot)).toEqual(Array.from({ length: PLAYERS }, (_, i) => i));
    await joined[0]?.until(() => s.stats().clients.filter((c) => c.udp !== null).length === PLAYERS, 20_000, 'every seat bound');

    // Two players' ships destroyed (by an asteroid: no killer): slot 3's death is on page 0, slot 129's on page 2.
    const victims = [joined[3], joined[PLAYERS - 1]] as GameClient[];
    for (const v of victims) v.sendState({ x: 0, y: 0, z: 0 }, [], { messages: [{ id: 1, event: { type: 'killObject', id: objectId(v.slot, 0), killerSlot: NO_SLOT } }] });
    const heard = (c: GameClient) => victims.every((v) => scoresAt(c).get(v.slot)?.deaths === 1);
    for (const c of joined) await c.until(() => heard(c), 20_000, `player ${c.slot} to hear of both deaths`);

    const first = latestPages(joined[0] as GameClient);
    const pages = [...first.keys()].sort((a, b) => a - b);
    console.log(`${PLAYERS} players on a ${MAX_PLAYERS}-seat gameserver: score pages ${pages.join(', ')} (${[...first.values()].map((p) => `page ${p.page}: ${p.scores.length} scores`).join(', ')}); every player heard of the deaths in slots 3 and ${PLAYERS - 1}`);
    expect(pages).toEqual([0, 1, 2, 3]);
    for (const c of joined) {
      const scores = [...scoresAt(c).values()].sort((a, b) => a.slot - b.slot);
      expect(scores).toEqual(victims.map((v) => ({ slot: v.slot, kills: 0, deaths: 1 })));
      expect(latestPages(c).get(2)?.scores).toEqual([{ slot: PLAYERS - 1, kills: 0, deaths: 1 }]);
    }
  });
});
