/**
 * The hostile-traffic test: a masterserver, a slotserver and a gameserver run
 * as real processes, eight headless bots play through the gameserver, and a
 * separate attacker process (bench/hostile.ts) fires a million random and
 * mutated datagrams at every UDP port, ten thousand malformed, oversized and
 * binary lines and requests at every TCP and HTTP port, leaves half-open
 * connections, and sends a cheating client that keeps joining. The servers
 * must stay up and answering, the honest bots must keep receiving states,
 * memory must not run away, and the offenders must be dropped and logged.
 * The scenario lives in test/support/hostileScenario.ts; the figures' targets
 * (≥ 95 % of honest updates, ≤ +10 % memory) are printed by
 * `npm run bench:hostile -- --bots 8`.
 */
import dgram from 'node:dgram';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startGameserver, type Gameserver } from '../../src/node/servers/game/gameserver';
import { startMasterserver } from '../../src/node/servers/master/masterserver';
import type { RunningServer } from '../../src/node/servers/common/types';
import { encodePacket } from '../../src/shared/wire/codec';
import { objectId, PacketType } from '../../src/shared/wire/types';
import { until } from '../support/testHost';
import { describeScenario, runHostileScenario, serverStatus, SERVER_NAMES } from '../support/hostileScenario';
import { GameClient, LineClient, shipAt } from '../support/gameClient';
import { stopServers } from '../support/serverProcess';
import { cleanUpFile } from '../support/testRun';

const BOTS = 8;
const DATAGRAMS = 1_000_000;
const LINES = 10_000;
/** The attack's pace: a million datagrams in about 40 s, some 25 times what 16 players at 60 Hz would send. */
const RATE = 25_000;

const inProcess: RunningServer[] = [];
const clients: { close(): void }[] = [];
afterEach(async () => {
  // The scenario's servers, bots and attacker go as soon as their test ends.
  await cleanUpFile();
  stopServers();
  for (const c of clients.splice(0)) c.close();
  await Promise.all(inProcess.splice(0).map((s) => s.close('test over')));
});

/** A pino logger whose JSON lines land in `lines`, so a test can read what a server logged. */
function capturedLog(lines: Record<string, unknown>[]) {
  return pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
}

describe('hostile traffic', () => {
  it(
    'a million bad datagrams and ten thousand bad TCP lines while 8 bots play: no crash or hang, bots keep receiving states, memory does not grow unbounded, offenders dropped and logged',
    { timeout: 150_000 },
    async () => {
      const r = await runHostileScenario({ bots: BOTS, datagrams: DATAGRAMS, lines: LINES, rate: RATE });
      const { master, slots, game, report, rateBefore, rateDuring, memBefore, memAfter, gameBefore, gameAfter, kernel, garbage, honestSent, packetsIn, dropped, idleClosed } = r;
      const servers = [master, slots, game];
      expect(slots.udp, 'the slotserver has a UDP port').toBeDefined();
      console.log(describeScenario(r));

      // Every server is alive and answers within a second.
      for (const s of servers) expect(s.child.exitCode, `${s.child.spawnfile} exited:\n${s.output().slice(-2000)}`).toBeNull();
      await serverStatus(slots);
      await serverStatus(master);

      expect(report.datagrams).toBeGreaterThanOrEqual(DATAGRAMS);
      expect(report.tcpLines).toBeGreaterThanOrEqual(LINES);
      expect(rateBefore, 'bots exchange states before the attack').toBeGreaterThan(BOTS * (BOTS - 1) * 10);
      // Honest players keep receiving states (a guard only breakage trips; the 95 % target is bench:hostile's).
      expect(rateDuring).toBeGreaterThanOrEqual(0.5 * rateBefore);

      // The live heap (after a full collection) is what would grow if the attack leaked, and the resident memory after
      // that collection is what the machine pays: neither may double (the +10 % target is bench:hostile's). (Servers run with a 1 MB young generation, as
      // `npm run server` starts them: with V8's default a flood grows the heap V8 reserves — a probe of 800,000
      // datagrams with cheaters took heapTotal 10.4 → 16.2 MB and RSS 54 → 68 MB while the live heap stayed at
      // 6.7 MB; with the flag, RSS 58.4 → 59.3 MB.) heapUsed is printed only: it includes uncollected garbage.
      memAfter.forEach((m, i) => expect(m.live, `${SERVER_NAMES[i]} live heap`).toBeLessThanOrEqual(memBefore[i]!.live * 2));
      memAfter.forEach((m, i) => expect(m.liveRss, `${SERVER_NAMES[i]} rss`).toBeLessThanOrEqual(memBefore[i]!.liveRss * 2));

      // Every datagram that reached the gameserver's socket was read (or lost in the kernel) and all garbage was dropped and counted.
      const expected = garbage + report.cheaters.datagrams + honestSent;
      expect(Math.abs(packetsIn + kernel - expected), 'datagrams read + lost vs sent').toBeLessThanOrEqual(1000);
      // (A mutated datagram can happen to be a valid LAN-discovery or time-sync request: answered, not dropped.)
      const answered = (x: Record<string, unknown>) => {
        const a = x.answered as { discovery: number; timeSync: number } | undefined;
        return (a?.discovery ?? 0) + (a?.timeSync ?? 0);
      };
      expect(dropped + answered(gameAfter) - answered(gameBefore)).toBeGreaterThanOrEqual(garbage - kernel);
      // No honest player collected a single strike: the checks never mistook the simulation's ships for cheats.
      const honestPlayers = (gameAfter.players as { name: string; strikes: number }[]).filter((p) => p.name.startsWith('honest'));
      expect(honestPlayers).toHaveLength(BOTS);
      for (const p of honestPlayers) expect(p.strikes, p.name).toBe(0);

      // Offenders: the cheater was dropped (and told why), sources were blocked, bad TCP connections were closed, all logged with reasons.
      expect(report.cheaters.kicked).toBeGreaterThanOrEqual(1);
      expect(report.cheaters.reasons.join('\n')).toMatch(/removed: dropped for bad data: (blatant \w|\d+ strikes within)/);
      expect(gameAfter.kicked as number).toBeGreaterThanOrEqual(report.cheaters.kicked);
      expect(gameAfter.blocks as number).toBeGreaterThan(0);
      expect(game.output()).toMatch(/"reason":"(blatant|\d+ strikes)[^"]*".*player dropped for bad data/);
      expect(game.output()).toMatch(/source blocked: too many datagrams that cannot be accepted/);
      expect(master.output()).toMatch(/connection closed: repeated invalid requests|connection closed or refused by the line server/);
      expect(slots.output()).toMatch(/connection closed: repeated invalid requests|connection closed or refused by the line server/);
      // Log lines are rationed: far fewer than the offences.
      expect(game.output().split('\n').length).toBeLessThan(1000);

      // Half-open connections were cut by every server within its deadline (join 3 s, masterserver idle 9 s, HTTP ~6 s).
      for (const c of idleClosed) {
        expect(c.ms, `half-open connection to port ${c.port} still open`).toBeGreaterThan(0);
        expect(c.ms).toBeLessThan(15_000);
      }
    },
  );
});

describe('server hardening, close up', () => {
  async function gameserver(lines: Record<string, unknown>[]): Promise<Gameserver> {
    const s = await startGameserver({ name: 'Hard', host: '127.0.0.1', port: 0, udpPort: 0, pingIntervalMs: 60_000, log: capturedLog(lines) });
    inProcess.push(s);
    return s;
  }
  async function join(s: Gameserver, name: string): Promise<GameClient> {
    const c = await GameClient.join({ tcpPort: s.ports.tcp as number, name });
    clients.push(c);
    c.hello();
    return c;
  }

  it('an impossible speed reaches the others corrected; a player who keeps at it is dropped, told why, and logged', async () => {
    const lines: Record<string, unknown>[] = [];
    const s = await gameserver(lines);
    const cheat = await join(s, 'cheat');
    const honest = await join(s, 'honest');
    await honest.tcp.next(); // add line for the cheater
    cheat.sendRaw(cheat.packet({ state: { ...shipAt({ x: 0, y: 0, z: 0 }), vel: { x: 0, y: 0, z: -500 } } }));
    await honest.until(() => honest.relayed().some((r) => r.slot === cheat.slot), 10_000, 'the corrected state');
    const relayed = honest.relayed().find((r) => r.slot === cheat.slot)!.packet.header.state!;
    expect(relayed.vel.z).toBeCloseTo(-200, 3);
    for (let i = 0; i < 12 && !cheat.tcp.ended; i++) {
      cheat.sendRaw(cheat.packet({ state: { ...shipAt({ x: 0, y: 0, z: 0 }), vel: { x: 0, y: 0, z: -500 } } }));
      // One at a time: each is judged (a strike) before the next goes.
      await until(`strike ${i + 2}`, () => (s.stats().strikes.speed ?? 0) >= Math.min(10, i + 2) || cheat.tcp.ended);
    }
    await cheat.until(() => cheat.tcp.lines.includes('removing you'), 10_000, 'removing you');
    expect(cheat.tcp.lines.find((l) => l.startsWith('removed: '))).toMatch(/^removed: dropped for bad data: 10 strikes within 10 s \(speed ×10; last: speed 500 > 200 units\/s\)$/);
    const warn = lines.find((l) => l.msg === 'player dropped for bad data');
    expect(warn).toMatchObject({ level: 40, slot: cheat.slot, address: '127.0.0.1', reason: expect.stringMatching(/10 strikes/) });
    expect(s.stats()).toMatchObject({ kicked: 1, strikes: { speed: 10 } });
    // The honest player is still in and hears that the cheater left.
    await honest.until(() => honest.tcp.lines.some((l) => l.startsWith('remove ')), 10_000, 'the remove line');
    expect(s.players().map((p) => p.name)).toEqual(['honest']);
  });

  it('a laser fired from across the map is blatant: the player is dropped at once and the laser never relayed', async () => {
    const lines: Record<string, unknown>[] = [];
    const s = await gameserver(lines);
    const cheat = await join(s, 'sniper');
    const honest = await join(s, 'victim');
    cheat.sendState({ x: 0, y: 0, z: 0 });
    await honest.until(() => honest.relayed().some((r) => r.slot === cheat.slot), 10_000, 'a first state');
    const sentBefore = s.stats().packetsOut;
    cheat.sendState({ x: 0, y: 0, z: 0 }, [{ type: 'createLaser', id: objectId(cheat.slot, 1), pos: { x: 0, y: 0, z: -50_000 }, vel: { x: 0, y: 0, z: 600 }, ttl: 40 }]);
    await cheat.until(() => cheat.tcp.lines.includes('removing you'), 10_000, 'removing you');
    expect(cheat.tcp.lines.find((l) => l.startsWith('removed: '))).toMatch(/blatant laser-origin/);
    // The server relays as a datagram arrives, in the same turn that judged it: nothing went out.
    expect(s.stats().packetsOut).toBe(sentBefore);
    expect(honest.relayed().flatMap((r) => r.packet.events).filter((e) => e.type === 'createLaser')).toEqual([]);
  });

  it('a source with no session that keeps sending bad tokens is blocked and logged once, not per datagram; joining lifts the block', async () => {
    const lines: Record<string, unknown>[] = [];
    const s = await gameserver(lines);
    const sock = dgram.createSocket('udp4');
    clients.push({ close: () => sock.close() });
    await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
    const forged = encodePacket({ header: { type: PacketType.GameState, senderSlot: 0, messageId: 1, gameTime: 0, joined: true, state: shipAt({ x: 0, y: 0, z: 0 }), token: 12345 }, events: [] });
    for (let i = 0; i < 300; i++) sock.send(forged, s.ports.udp as number, '127.0.0.1');
    await until('all 300 to be dropped', () => (s.stats().drops['unknown-token'] ?? 0) + (s.stats().drops.blocked ?? 0) >= 300);
    const st = s.stats();
    expect(st.drops['unknown-token']).toBe(50);
    expect(st.drops.blocked).toBe(250);
    expect(st.blockedNow).toBe(1);
    const logged = lines.filter((l) => String(l.msg).includes('source'));
    expect(logged.map((l) => l.msg)).toEqual(['dropping datagrams from a source with no session (logged at most once a minute per address)', 'source blocked: too many datagrams that cannot be accepted']);
    // The same address joins over TCP: its datagrams count again.
    await join(s, 'late');
    expect(s.stats().blockedNow).toBe(0);
  });

  it('bad TCP lines: an unjoined connection is closed after 5, a joined player removed after 10, each logged once per address', async () => {
    const lines: Record<string, unknown>[] = [];
    const s = await gameserver(lines);
    const stranger = await LineClient.open(s.ports.tcp as number);
    clients.push({ close: () => stranger.socket.destroy() });
    for (let i = 0; i < 8; i++) stranger.send(`garbage ${i}`);
    await new Promise<void>((r) => (stranger.ended ? r() : stranger.socket.once('close', () => r())));
    expect(stranger.lines.filter((l) => l === 'you sent an invalid request')).toHaveLength(5);
    const player = await join(s, 'chatty');
    for (let i = 0; i < 12; i++) player.tcp.send(`nonsense ${i}`);
    await player.until(() => player.tcp.lines.includes('removing you'), 10_000, 'removing you');
    expect(player.tcp.lines.find((l) => l.startsWith('removed: '))).toMatch(/^removed: removed for repeated invalid requests: 10 strikes/);
    expect(lines.filter((l) => l.msg === 'connection closed: repeated invalid requests')).toHaveLength(1);
    expect(lines.filter((l) => l.msg === 'player removed for repeated invalid requests')).toHaveLength(1);
    expect(s.stats().tcp['invalid-requests']).toBe(2);
  });

  it('the masterserver closes a connection after 5 bad lines and rate limits list requests', async () => {
    const lines: Record<string, unknown>[] = [];
    const m = await startMasterserver({ name: 'm', host: '127.0.0.1', port: 0, httpPort: 0, log: capturedLog(lines) });
    inProcess.push(m);
    const c = await LineClient.open(m.ports.tcp as number);
    clients.push({ close: () => c.socket.destroy() });
    for (let i = 0; i < 8; i++) c.send(`bogus ${i}`);
    await new Promise<void>((r) => (c.ended ? r() : c.socket.once('close', () => r())));
    // Four replies, then the fifth as the connection's last line.
    expect(c.lines.length).toBe(5);
    expect(lines.some((l) => l.msg === 'connection closed: repeated invalid requests')).toBe(true);
    const lister = await LineClient.open(m.ports.tcp as number);
    clients.push({ close: () => lister.socket.destroy() });
    for (let i = 0; i < 30; i++) lister.send('list servers');
    // Refused requests count as bad lines: the connection is closed once they add up.
    await new Promise<void>((r) => (lister.ended ? r() : lister.socket.once('close', () => r())));
    // An empty list is one end-of-list line per answered request: the burst is answered, the rest is not.
    expect(lister.lines.length).toBeLessThanOrEqual(11);
    const status = (await (await fetch(`http://127.0.0.1:${m.ports.http}/status.json`)).json()) as { memory: { rss: number; heapUsed: number }; closed: Record<string, number> };
    expect(status.memory.rss).toBeGreaterThan(status.memory.heapUsed);
    expect(status.closed['invalid-requests']).toBeGreaterThanOrEqual(1);
  });
});
