/**
 * The seed's "the server is player 0": a hosting player's GameDriver runs the
 * NetgameServer itself (HostedNetgame), a second player's GameDriver runs a
 * NetgameClient (clientSync); both games show the shared state, the client
 * a frame behind. In-process, on one virtual clock, 30 ms each way.
 */
import { describe, expect, it } from 'vitest';
import { GameDriver } from '../../../src/shared/game/gameDriver';
import { hashWorld } from '../../../src/shared/game/hash';
import { NetgameClient } from '../../../src/shared/netgame/client';
import { NetgameServer } from '../../../src/shared/netgame/server';
import { clientSync, HostedNetgame } from '../../../src/shared/netgame/sync';
import type { ShipInput } from '../../../src/shared/sim/types';
import type { NetgameEvent, RemoteEvent } from '../../../src/shared/wire/types';
import { VirtualClock } from '../../support/virtualClock';

const ONE_WAY_MS = 30;

describe('a netgame hosted by a player', () => {
  it("the host's game and a client's game show the same state, frame for frame", () => {
    const clock = new VirtualClock();
    const deliver = (to: (ev: NetgameEvent) => void, events: RemoteEvent[]) => {
      for (const ev of events) clock.setTimeout(() => to(ev as NetgameEvent), ONE_WAY_MS);
    };
    let client: NetgameClient | null = null;
    const server = new NetgameServer({ seed: 7, send: (_slot, events) => deliver((ev) => client?.receive(ev, clock.now()), events) });
    client = new NetgameClient({ send: (events) => deliver((ev) => server.receive(1, ev, clock.now()), events) });
    const c = client;
    const driver = (input: ShipInput) => new GameDriver({ clock, playerName: () => 'p', sendFrequency: () => 20, autoJoin: () => true, input: () => input });
    const host = driver({ thrust: 1, yaw: 0, pitch: 0, roll: 0, fire: false });
    const guest = driver({ thrust: 0.5, yaw: 1, pitch: 0, roll: 0, fire: true });
    host.attachSync(new HostedNetgame(server, 0));
    guest.attachSync(clientSync(c));
    const hostHashes = new Map<number, string>();
    const seen: { frame: number; same: boolean }[] = [];
    const hostGame = host.game;
    const guestGame = guest.game;
    server.join(0, clock.now(), false);
    server.join(1, clock.now());
    host.start();
    guest.start();
    for (let t = 0; t < 5000; t += 25) {
      clock.advance(25);
      hostHashes.set(hostGame.curr.tick, hashWorld(hostGame.curr));
      const h = hostHashes.get(guestGame.curr.tick);
      // Once the client has the server's state (before, the guest flies its own offline world).
      if (h !== undefined && c.state?.world === guestGame.curr) seen.push({ frame: guestGame.curr.tick, same: h === hashWorld(guestGame.curr) });
    }
    host.stop();
    guest.stop();
    const behind = hostGame.curr.tick - guestGame.curr.tick;
    console.log(`hosted netgame, 5 s: host at frame ${hostGame.curr.tick}, client ${behind} frames behind; ${seen.length} client frames compared, ${seen.filter((x) => !x.same).length} differing`);
    expect(seen.length).toBeGreaterThan(150);
    expect(seen.every((x) => x.same)).toBe(true);
    // Both ships are in both games, and each flew as its pilot steered (the host straight ahead, the guest turning).
    for (const g of [hostGame, guestGame]) expect(g.curr.ships.map((s) => s.slot).sort()).toEqual([0, 1]);
    const ship = (slot: number) => hostGame.curr.ships.find((s) => s.slot === slot);
    expect(Math.hypot(ship(0)?.vel.x ?? 0, ship(0)?.vel.y ?? 0, ship(0)?.vel.z ?? 0)).toBeGreaterThan(1);
    expect(ship(1)?.rot).not.toEqual({ x: 0, y: 0, z: 0, w: 1 });
    expect(guestGame.localSlot).toBe(1);
    expect(hostGame.localSlot).toBe(0);
  });
});
