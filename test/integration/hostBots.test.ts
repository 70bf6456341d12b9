/**
 * Offline practice in a complete host: `bot add 3 2` puts three hunt pilots
 * into the host's game, where they fly and fight; `bot kick` sends the last
 * one home; bad arguments and a network game get one clear line each.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../src/node/host/createHost';
import type { HostService } from '../../src/node/host/hostService';
import type { HostEvent } from '../../src/shared/host/contract';
import { SHIELD_MAX } from '../../src/shared/game';
import type { Vec3 } from '../../src/shared/game/types';
import { tempDir } from '../support/testRun';
import { waitFor } from '../support/waitFor';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

const hosts: HostService[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
});

async function harness(): Promise<{ host: HostService; run(line: string): Promise<string>; text(): string }> {
  const host = await createHost({
    shell: 'browser',
    appVersion: '0.0.0-test',
    userDataDir: tempDir('hostbots'),
    clientPort: await freeUdpPorts(P2P_PORT_SPAN),
    broadcastAddress: '127.255.255.255',
    lanInterfaces: [],
    log: pino({ level: 'silent' }),
    onQuit: () => undefined,
  });
  hosts.push(host);
  const events: HostEvent[] = [];
  host.onEvents((batch) => events.push(...batch));
  const lines = (from: number) =>
    events
      .slice(from)
      .flatMap((e) => (e.kind === 'console' ? [e.text] : []))
      .join('\n');
  return {
    host,
    text: () => lines(0),
    run: async (line) => {
      await new Promise((r) => setImmediate(r));
      const from = events.length;
      await host.command(line);
      await new Promise((r) => setImmediate(r));
      return lines(from);
    },
  };
}

const far = (a: Vec3, b: Vec3): number => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

describe('bot console commands', () => {
  it('bot add 3 2 gives three ships that fly and fight; bot kick sends the last one home', async () => {
    const { host, run } = await harness();
    const game = host.game!.game;
    expect(await run('bot add 3 2')).toBe('3 bots of skill 2 joined (slot 1, slot 2, slot 3); 3 flying, bot kick sends the last one home\nthey come in 600 units away, weapons ready in 5 s; a new match begins');
    expect(game.bots).toEqual([1, 2, 3]);
    expect(game.curr.ships.map((s) => s.slot)).toEqual([0, 1, 2, 3]);
    const start = new Map(game.curr.ships.map((s) => [s.slot, s.pos]));
    const startTick = game.curr.tick;
    // Watched tick by tick as the game runs: bolts the bots fire, hits they land.
    let bolts = 0;
    let hurt = false;
    const seen = new Set<number>();
    await waitFor('every bot flown away from its spawn point, bots firing and a ship hurt', () => {
      const w = game.curr;
      for (const o of w.objects) {
        if (o.kind === 'laser' && game.bots.includes(o.owner) && !seen.has(o.id)) {
          seen.add(o.id);
          bolts++;
        }
      }
      if (w.ships.some((s) => s.shield < SHIELD_MAX || s.damage > 0 || s.respawnIn > 0)) hurt = true;
      const moved = game.bots.every((slot) => {
        const s = w.ships.find((x) => x.slot === slot);
        return s !== undefined && far(s.pos, start.get(slot)!) > 30;
      });
      return moved && bolts > 0 && hurt;
    }, 60_000);
    console.log(`bot add 3 2: bots flew, fired ${bolts} bolts and hurt a ship within ${game.curr.tick - startTick} ticks`);
    expect(await run('bot')).toMatch(/^slot 1 {2}skill 2 {2}kills \d+ {2}deaths \d+/);

    expect(await run('bot kick')).toBe('kicked the bot of slot 3; 2 left');
    expect(game.bots).toEqual([1, 2]);
    expect(game.curr.ships.map((s) => s.slot)).toEqual([0, 1, 2]);
    expect(await run('bot kick all')).toBe('kicked the bots of slot 2, slot 1; 0 left');
    expect(game.curr.ships.map((s) => s.slot)).toEqual([0]);
    expect(await run('bot kick')).toMatch(/^bot kick: there are no bots/);
  }, 90_000);

  it('bad arguments get one clear line and add nobody', async () => {
    const { host, run } = await harness();
    expect(await run('bot add many')).toMatch(/^bot add: the number of bots must be a whole number from 1 to 7 \(got "many"\)/);
    expect(await run('bot add 0')).toMatch(/whole number from 1 to 7/);
    expect(await run('bot add 2 9')).toMatch(/^bot add: skill must be a whole number from 1 .* to 5 .* \(got "9"\)/);
    expect(await run('bot kick some')).toMatch(/^bot kick: unknown argument "some"/);
    expect(await run('bot dance')).toMatch(/^bot: unknown argument "dance" — usage: bot \[add/);
    expect(await run('bot')).toMatch(/^no bots; bot add/);
    expect(host.game!.game.bots).toEqual([]);
  });

  it('in a network game bot add says bots fly only offline', async () => {
    const { host, run, text } = await harness();
    await run('protocol p2p');
    expect(await run('bot add 1 5')).toMatch(/^1 bot of skill 5 joined/);
    await run('connect');
    await waitFor('alone in a peer-to-peer game', () => /connected to the peer-to-peer game as slot 0/.test(text()));
    // Entering a network game sent the bot home.
    await waitFor('the bot gone', () => host.game!.game.bots.length === 0);
    expect(await run('bot add 2')).toMatch(/^bot add: you are in a network game; computer pilots fly only in the offline game/);
    expect(host.game!.game.bots).toEqual([]);
  }, 30_000);
});
