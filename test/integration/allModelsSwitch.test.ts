/**
 * Live protocol switching through all five network models: three players
 * (three hosts in this process, loopback) go p2p → lockstep → netgame →
 * gameserver while running. Each step ends in one consistent game: the same
 * slot table everywhere (all joined), and in lockstep and the netgame the
 * same world (one hash for a frame all three showed). Nothing is left open
 * afterwards.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { waitFor as until } from '../support/waitFor';
import { startGameserver } from '../../src/node/servers/game/gameserver';
import { startNetgameServer } from '../../src/node/servers/netgame/netgameServer';
import { hashWorld } from '../../src/shared/game/hash';
import { openHandles, SwitchRig } from '../support/switchRig';

describe('live protocol switching through lockstep', () => {
  it('three players go p2p → lockstep → netgame → gameserver, one consistent game each time, no leaks', { timeout: 60_000 }, async () => {
    const before = openHandles();
    const log = pino({ level: 'silent' });
    const gs = await startGameserver({ name: 'GS', log, port: 0, udpPort: 0, host: '127.0.0.1', maxPlayers: 8, welcome: [] });
    const ng = await startNetgameServer({ name: 'NG', log, port: 0, udpPort: 0, host: '127.0.0.1' });
    const rig = await SwitchRig.start();
    const players = rig.players;
    /** Each host's world hash by tick, sampled every few ms (a tick lasts 25 ms). */
    const samples = players.map(() => new Map<number, string>());
    const sampler = setInterval(() => {
      players.forEach((p, i) => {
        const w = p.host.game?.game.curr;
        if (w && w.ships.length === 3 && !samples[i]?.has(w.tick)) samples[i]?.set(w.tick, hashWorld(w));
      });
    }, 4);
    /** A tick past 80 all three showed with three ships (past the joins' state transfers and a hash check): its hashes, one if the worlds agree. */
    const commonFrame = () => {
      const [a, b, c] = samples as [Map<number, string>, Map<number, string>, Map<number, string>];
      const ticks = [...a.keys()].filter((t) => t >= 80 && b.has(t) && c.has(t));
      const t = ticks[ticks.length - 1];
      return t === undefined ? null : { tick: t, hashes: new Set([a.get(t), b.get(t), c.get(t)]) };
    };
    const times: string[] = [];
    try {
      times.push(`p2p ${(await rig.switchTo('p2p')).toFixed(0)} ms`);
      const ms = await rig.switchTo('lockstep');
      for (const s of samples) s.clear();
      const frame = await until('a frame past 80 all three hosts showed', commonFrame);
      times.push(`lockstep ${ms.toFixed(0)} ms`);
      console.log(`lockstep: frame ${frame.tick} shown by all three with hash(es) ${[...frame.hashes].join(', ')}`);
      expect(frame.hashes.size).toBe(1);
      for (const p of players) expect(p.lines.filter((l) => /desync/.test(l))).toEqual([]);
      const msNet = await rig.switchTo('netgame', `127.0.0.1:${ng.ports.tcp}`);
      for (const s of samples) s.clear();
      const netFrame = await until('a netgame frame past 80 all three hosts showed', commonFrame, 15_000);
      times.push(`netgame ${msNet.toFixed(0)} ms`);
      console.log(`netgame: frame ${netFrame.tick} shown by all three with hash(es) ${[...netFrame.hashes].join(', ')}`);
      expect(netFrame.hashes.size).toBe(1);
      times.push(`gameserver ${(await rig.switchTo('gameserver', `127.0.0.1:${gs.ports.tcp}`)).toFixed(0)} ms`);
    } finally {
      clearInterval(sampler);
    }
    console.log(`protocol switches (three players, command to one consistent game): ${times.join(', ')}`);
    // After lockstep the gameserver game is a Parsec one again: each host shows its own ship and the two others.
    await until('each host shows the three ships of the gameserver game', () => players.every((p) => p.host.game?.game.curr.ships.length === 3));

    await rig.dispose();
    await gs.close();
    await ng.close();
    await until('sockets released', () => {
      const after = openHandles();
      return after.udp === before.udp && after.tcp === before.tcp;
    });
  });
});
