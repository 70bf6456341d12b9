/**
 * A gameserver's spectators over real TCP and UDP sockets on loopback
 * (game/spectatorStand.ts): seats apart from the players', every player's
 * state and event whatever the distance, nothing taken from the players,
 * nothing a spectator sends reaching the game, the broadcast delay, the
 * seat limit and the status JSON. Clients: test/support/gameClient.ts.
 */
import { describe, expect, it } from 'vitest';
import { NO_SLOT, PacketType, objectId, type RemoteEvent } from '../../src/shared/wire/types';
import { renderGameserverStatus } from '../../src/node/servers/game/gameserverStatus';
import type { GameClient } from '../support/gameClient';
import { useGameservers } from '../support/gameserverFixture';

const { server, join, players, spectator } = useGameservers();
const statesFrom = (c: GameClient, slot: number) => c.relayed().filter((r) => r.slot === slot && r.packet.header.state !== undefined && r.packet.header.joined);
/** A laser fired from a ship at `x` on the x axis. */
const laser = (slot: number, id: number, x = 0): RemoteEvent => ({ type: 'createLaser', id: objectId(slot, id), pos: { x, y: 0, z: 0 }, vel: { x: 0, y: 0, z: -300 }, ttl: 40 });
const chat = (text: string): RemoteEvent => ({ type: 'sendText', text });

describe('gameserver spectators', () => {
  it('a spectator gets every player\'s states and lasers whatever the distance, and the players get what they got without it', async () => {
    const s = await server({ filterRadius: 1000 });
    const [a, far] = await players(s, ['ace', 'far']);
    const eye = await spectator(s, 'eye');
    far!.sendState({ x: 5000, y: 0, z: 0 });
    a!.sendState({ x: 0, y: 0, z: 0 });
    await eye.until(() => statesFrom(eye, a!.slot).length > 0 && statesFrom(eye, far!.slot).length > 0, 10_000, 'the spectator to get both states');
    // Where both are is known now: each one's laser is beyond the other's radius.
    a!.sendState({ x: 0, y: 0, z: 0 }, [laser(a!.slot, 1)]);
    far!.sendState({ x: 5000, y: 0, z: 0 }, [laser(far!.slot, 1, 5000)]);
    await eye.until(() => eye.relayed().flatMap((r) => r.packet.events).filter((e) => e.type === 'createLaser').length === 2, 10_000, 'both lasers');
    // The players are 5,000 units apart: neither gets the other's state or laser, spectator or not.
    a!.sendState({ x: 0, y: 0, z: 0 }, [chat('done')]);
    await far!.until(() => far!.relayed().some((r) => r.packet.events.some((e) => e.type === 'sendText')), 10_000, 'far to get the chat');
    expect(statesFrom(far!, a!.slot)).toEqual([]);
    expect(statesFrom(a!, far!.slot)).toEqual([]);
    expect(far!.relayed().flatMap((r) => r.packet.events)).toEqual([chat('done')]);
    await eye.until(() => eye.relayed().some((r) => r.packet.events.some((e) => e.type === 'sendText')), 10_000, 'the spectator to get the chat');
    // Nobody hears of the spectator: no add line, no state of it, and it sent none.
    expect(a!.relayed().some((r) => r.slot === NO_SLOT)).toBe(false);
    const st = s.stats();
    expect(st.drops).toEqual({});
    expect(st.strikes).toEqual({});
    expect(st.eventDrops).toEqual({ outdated: 0, overflow: 0, foreign: 0, farPickup: 0, spectator: 0 });
    expect(st.load.statesShed).toBe(0);
    expect(st.spectators.drops).toEqual({ overflow: 0, outdated: 0 });
    expect(st.clients.map((c) => c.statesSent)).toEqual([0, 0]);
    expect(st.spectators.list).toHaveLength(1);
    expect(st.spectators.list[0]).toMatchObject({ spectator: 0, name: 'eye', statesSent: 5 });
    console.log(`spectator: ${st.spectators.list[0]?.statesSent} states in ${st.spectators.list[0]?.datagramsSent} datagrams (${st.spectators.list[0]?.bytesSent} B); players' states sent to each other: 0 (5,000 units apart)`);
  });

  it('a spectator has no say: its states are dropped as spectator-state, its chat goes to nobody, and a player hears no word of it', async () => {
    const s = await server({ flush: 'tick' });
    const [a] = await players(s, ['ace']);
    const eye = await spectator(s, 'eye');
    eye.sendRaw(eye.packet({ pos: { x: 0, y: 0, z: 0 }, events: [chat('I see you')] }));
    eye.sendRaw(eye.packet({ type: PacketType.Reliable, joined: false, state: undefined, gameTime: undefined, link: { messages: [{ id: 1, event: { type: 'sendText', text: 'psst' } }] } }));
    await eye.until(() => s.stats().drops['spectator-state'] === 1 && s.stats().eventDrops.spectator === 1, 10_000, 'both to be counted');
    // Its reliable message was acknowledged all the same (or its client would send it forever).
    await eye.until(() => eye.received.some((r) => r.packet.link?.acks?.includes(1)), 10_000, 'the acknowledgement');
    a!.sendState({ x: 0, y: 0, z: 0 }, [chat('anyone?')]);
    await eye.until(() => eye.relayed().some((r) => r.packet.events.some((e) => e.type === 'sendText')), 10_000, 'the spectator to get the player\'s chat');
    expect(a!.relayed()).toEqual([]);
    expect(s.playerCount()).toBe(1);
    expect(s.stats().clients).toHaveLength(1);
  });

  it('the spectator seats are apart from the players\': a full game still takes spectators, and the 33rd spectator is told the seats are full', async () => {
    const s = await server({ maxPlayers: 1 });
    await players(s, ['ace']);
    const eyes: GameClient[] = [];
    for (let i = 0; i < 32; i++) eyes.push(await join(s, `eye${i}`, { spectate: true, localAddress: `127.0.0.${2 + (i % 8)}` }));
    expect(s.stats().spectators.max).toBe(32);
    const refused = await join(s, 'eye32', { spectate: true, localAddress: '127.0.0.10' }).then(
      () => 'seated',
      (e: Error) => e.message,
    );
    expect(refused).toBe('join refused: spectators full');
    const player = await join(s, 'bob').then(
      () => 'seated',
      (e: Error) => e.message,
    );
    expect(player).toBe('join refused: server full');
    expect(s.playerCount()).toBe(1);
  });

  it('with a spectator delay, a spectator sees a state no sooner than the delay after the player sent it, and the players at once', async () => {
    const s = await server({ spectatorDelayS: 0.5 });
    const [a, b] = await players(s, ['ace', 'bob']);
    const eye = await spectator(s, 'eye');
    const sentAt = performance.now();
    a!.sendState({ x: 10, y: 0, z: 0 });
    await b!.until(() => statesFrom(b!, a!.slot).length > 0, 10_000, 'bob to get the state');
    const playerMs = (statesFrom(b!, a!.slot)[0]?.at ?? 0) - sentAt;
    expect(statesFrom(eye, a!.slot)).toEqual([]);
    await eye.until(() => statesFrom(eye, a!.slot).length > 0, 10_000, 'the spectator to get the state');
    const spectatorMs = (statesFrom(eye, a!.slot)[0]?.at ?? 0) - sentAt;
    expect(spectatorMs).toBeGreaterThanOrEqual(500);
    expect(statesFrom(eye, a!.slot)[0]?.packet.header.state?.pos).toEqual({ x: 10, y: 0, z: 0 });
    expect(JSON.parse(renderGameserverStatus(s).json).spectators).toMatchObject({ max: 32, delayS: 0.5 });
    console.log(`state to a player after ${playerMs.toFixed(1)} ms, to the spectator after ${spectatorMs.toFixed(1)} ms (delay 500 ms)`);
  });

  it('a player who leaves is gone for the spectators, with what it did in the delay; the status page lists the spectators', async () => {
    const s = await server({ spectatorDelayS: 0.3 });
    const [a, b] = await players(s, ['ace', 'bob']);
    const eye = await spectator(s, 'eye');
    b!.sendState({ x: 0, y: 0, z: 0 });
    await eye.until(() => statesFrom(eye, b!.slot).length > 0, 10_000, 'the spectator to get bob');
    a!.sendState({ x: 1, y: 0, z: 0 }, [laser(a!.slot, 7)]);
    a!.tcp.send('remove me');
    expect(await eye.tcp.next()).toMatch(/^remove ip: 127\.0\.0\.1:\d+/);
    // Once the delay has passed twice over, nothing of ace's last moment has come.
    b!.sendState({ x: 0, y: 0, z: 1 });
    await eye.until(() => statesFrom(eye, b!.slot).length > 1, 10_000, 'bob\'s second state');
    expect(statesFrom(eye, a!.slot)).toEqual([]);
    expect(eye.relayed().flatMap((r) => r.packet.events)).toEqual([]);
    const page = renderGameserverStatus(s).html;
    expect(page).toContain('Spectators: 1 of 32 seats; they see the game 0.3 s late: eye (127.0.0.1:');
  });
});
