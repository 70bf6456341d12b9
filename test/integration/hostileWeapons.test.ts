/**
 * Cheating with the rules of a match, against a real gameserver process
 * (out/main/server.js): four scripted cheaters play alongside three honest
 * scripted players, and the server's rule guard (src/node/servers/ruleGuard.ts)
 * must stop each one — its events not forwarded to the honest player — and
 * strike it, while the honest players collect no strike:
 * (a) missiles without ammunition: more than RULES.missile.startAmmo in one life;
 * (b) mines at ten times the allowed rate;
 * (c) a kill it did not make: its own death credited to a friend who never fired;
 * (d) hits it ignores: parked while an honest shooter's laser bolts (level 3,
 *     at the gun's cooldown) fly straight through it, reporting damage 0.
 * Figures (events dropped, strikes by kind, honest delivery) are printed.
 * Attackers are paced in real time (their rate is the attack); every check
 * waits for what the server reports, never for a fixed time.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { RULES } from '../../src/shared/game/rules';
import { NO_SLOT, objectId, PacketType, type RemoteEvent } from '../../src/shared/wire/types';
import type { Vec3 } from '../../src/shared/sim/types';
import { GameClient } from '../support/gameClient';
import { serverEntry, startServer, stopServers } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';

const clients: GameClient[] = [];
const timers: ReturnType<typeof setInterval>[] = [];
afterEach(() => {
  for (const t of timers.splice(0)) clearInterval(t);
  for (const c of clients.splice(0)) c.close();
  stopServers();
});

interface Status {
  strikes: Record<string, number>;
  kicked: number;
  players: { name: string; slot: number; strikes: number }[];
}
const status = async (http: number): Promise<Status> => (await (await fetch(`http://127.0.0.1:${http}/status.json`)).json()) as Status;

/** Every event `c` was relayed from `slot`, reliable messages unwrapped. */
function eventsFrom(c: GameClient, slot: number): RemoteEvent[] {
  const out: RemoteEvent[] = [];
  for (const r of c.relayed()) if (r.slot === slot) for (const e of r.packet.events) out.push(e.type === 'reliable' ? e.event : e);
  return out;
}
const statesFrom = (c: GameClient, slot: number) => c.relayed().filter((r) => r.slot === slot && r.packet.header.type === PacketType.GameState).length;

/** Sends `c`'s state at `pos` every 50 ms (20 Hz, a player's rate), with whatever `events()` has queued; counts what it sent. */
function fly(c: GameClient, pos: Vec3, events: () => RemoteEvent[] = () => []): { sent: number } {
  const n = { sent: 0 };
  timers.push(
    setInterval(() => {
      c.sendState(pos, events());
      n.sent += 1;
    }, 50),
  );
  return n;
}

describe('cheating with weapons, kills and hits on a gameserver', () => {
  it('missiles without ammo, mines at 10x the rate, a kill credited to a friend, hits ignored: each stopped and struck, honest players never', { timeout: 120_000 }, async () => {
    if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npx electron-vite build" first`);
    const server = await startServer(['gameserver', '--name', 'Rules', '--port', '0', '--udp-port', '0', '--http-port', '0']);
    const http = server.http!;
    const join = async (name: string) => {
      const c = await GameClient.join({ tcpPort: server.tcp, name });
      clients.push(c);
      c.hello();
      return c;
    };
    const honest = await join('honest');
    const shooter = await join('honest-shooter');
    const friend = await join('honest-friend');
    const missiler = await join('cheat-missiles');
    const miner = await join('cheat-mines');
    const claimer = await join('cheat-claim');
    const parked = await join('cheat-parked');
    const at = {
      honest: { x: 0, y: 0, z: 0 },
      shooter: { x: 300, y: 0, z: -400 },
      friend: { x: -300, y: 0, z: 0 },
      missiler: { x: 0, y: 200, z: 0 },
      miner: { x: 0, y: -200, z: 0 },
      claimer: { x: -300, y: 200, z: 0 },
      parked: { x: 300, y: 0, z: 0 },
    };
    // The shooter fires a level-3 shot (three bolts, boltSpacing apart) at the parked cheater every cooldown and a bit.
    let shots = 0;
    let shooting = false;
    const bolts = (): RemoteEvent[] => {
      if (!shooting) return [];
      shots += 1;
      return [-1, 0, 1].map((k, i) => ({ type: 'createLaser', id: objectId(shooter.slot, (shots * 3 + i) & 0xffff), pos: { x: at.shooter.x + k * RULES.laser.boltSpacing, y: 0, z: at.shooter.z + 8 }, vel: { x: 0, y: 0, z: 700 }, ttl: RULES.laser.ttlTicks }));
    };
    const flights = {
      honest: fly(honest, at.honest),
      friend: fly(friend, at.friend),
      missiler: fly(missiler, at.missiler),
      miner: fly(miner, at.miner),
      claimer: fly(claimer, at.claimer),
      parked: fly(parked, at.parked),
    };
    // Shots every 200 ms (the cooldown is 150 ms): every fourth state of a 50 ms stream.
    let tick = 0;
    const shooterFlight = fly(shooter, at.shooter, () => (tick++ % 4 === 0 ? bolts() : []));
    await waitFor('the honest player to hear every other', () => [shooter, friend, missiler, miner, claimer, parked].every((c) => statesFrom(honest, c.slot) > 0), 20_000);
    shooting = true;

    // (a) Three missiles at once (the life's ammunition), then three more, each after the launcher's cooldown.
    const missile = (k: number): RemoteEvent => ({ type: 'createMissile', id: objectId(missiler.slot, 100 + k), pos: { x: 0, y: 200, z: -8 }, vel: { x: 0, y: 0, z: -300 }, targetSlot: NO_SLOT, ttl: RULES.missile.ttlTicks });
    missiler.sendState(at.missiler, [missile(0), missile(1), missile(2)]);
    for (let k = 3; k < 6; k++) {
      const due = performance.now() + RULES.missile.cooldownTicks * 25 + 100;
      await waitFor('the launcher cooldown (the attacker pacing itself)', () => performance.now() >= due, 5000, 10);
      missiler.sendState(at.missiler, [missile(k)]);
    }
    // (b) Twenty mines, one every 25 ms: ten times RULES.mine.cooldownTicks allows.
    for (let k = 0; k < 20 && !miner.tcp.ended; k++) {
      miner.sendState(at.miner, [{ type: 'createObject', id: objectId(miner.slot, 200 + k), kind: 1, pos: { x: 0, y: -200, z: 10 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 } }]);
      const due = performance.now() + (RULES.mine.cooldownTicks * 25) / 10;
      await waitFor('the next mine (the attacker pacing itself)', () => performance.now() >= due, 5000, 5);
    }
    // (c) Its own death, credited to a friend who never fired, as a reliable message.
    claimer.sendRaw(claimer.packet({ type: PacketType.Reliable, events: [{ type: 'reliable', id: 1, event: { type: 'killObject', id: objectId(claimer.slot, 0), killerSlot: friend.slot } }] }));

    await waitFor('the missile, mine and kill-claim strikes', async () => {
      const s = await status(http);
      return (s.strikes['missile-ammo'] ?? 0) >= 3 && (s.strikes['mine-rate'] ?? 0) + (s.strikes['mine-ammo'] ?? 0) >= 10 && (s.strikes['false-kill-claim'] ?? 0) >= 1;
    }, 20_000);
    // (d) The barrage goes on until the parked cheater has been struck for ignoring it twice (the first after the
    // spawn grace, the forgiven invulnerability window and a lethal batch beyond shield, hull, recharge and margin).
    const final = await waitFor('two ignores-hits strikes', async () => {
      const s = await status(http);
      return (s.strikes['ignores-hits'] ?? 0) >= 2 ? s : null;
    }, 90_000, 250);
    shooting = false;

    const from = (c: GameClient, type: RemoteEvent['type']) => eventsFrom(honest, c.slot).filter((e) => e.type === type).length;
    const honestNames = ['honest', 'honest-shooter', 'honest-friend'];
    const dropKinds = Object.entries(final.strikes).filter(([k]) => /^(missile|mine|emp)-|false-kill-claim/.test(k));
    const boltsSent = shots * 3;
    const boltsGot = from(shooter, 'createLaser');
    const delivered = statesFrom(honest, shooter.slot) / shooterFlight.sent;
    console.log(
      [
        `rule cheaters: strikes by kind ${JSON.stringify(final.strikes)}; players dropped ${final.kicked}`,
        `events dropped by the rule guard: ${dropKinds.reduce((n, [, v]) => n + v, 0)} (${dropKinds.map(([k, v]) => `${k} ${v}`).join(', ')})`,
        `honest player received: missiles from (a) ${from(missiler, 'createMissile')} of 6 sent, mines from (b) ${from(miner, 'createObject')} of 20, kill claims from (c) ${from(claimer, 'killObject')} of 1`,
        `honest shooter: ${boltsGot} of ${boltsSent} bolts and ${statesFrom(honest, shooter.slot)} of ${shooterFlight.sent} states delivered (${(100 * delivered).toFixed(1)} %); honest strikes ${JSON.stringify(final.players.filter((p) => honestNames.includes(p.name)).map((p) => [p.name, p.strikes]))}`,
        `states sent: ${JSON.stringify(Object.fromEntries(Object.entries(flights).map(([k, v]) => [k, v.sent])))}`,
      ].join('\n'),
    );

    // Each cheat stopped: the honest player got what the rules allow, no more.
    expect(from(missiler, 'createMissile')).toBe(RULES.missile.startAmmo);
    expect(from(miner, 'createObject')).toBe(RULES.mine.startAmmo);
    expect(from(claimer, 'killObject')).toBe(0);
    // …and struck.
    expect(final.strikes['missile-ammo']).toBeGreaterThanOrEqual(3);
    expect(final.strikes['false-kill-claim']).toBe(1);
    expect(final.strikes['ignores-hits']).toBeGreaterThanOrEqual(2);
    // The mine layer ran out of strikes and was dropped.
    await waitFor('the mine layer told it is removed', () => miner.tcp.lines.some((l) => l.startsWith('removed: ')), 10_000);
    expect(miner.tcp.lines.find((l) => l.startsWith('removed: '))).toMatch(/strikes within .*mine-/);
    // Honest players: not one strike, and the shooter's bolts all forwarded (none judged a cheat).
    for (const p of final.players.filter((x) => honestNames.includes(x.name))) expect(p.strikes, p.name).toBe(0);
    expect(final.players.filter((x) => honestNames.includes(x.name))).toHaveLength(3);
    expect(boltsGot).toBeGreaterThan(0.9 * (boltsSent - 3 * 4));
    expect(delivered).toBeGreaterThan(0.9);
  });
});
