/**
 * The demo commands on a whole host (settings, console, subsystems, the
 * game ticking on its clock): record and stop in practice, demos, timedemo
 * with every digest matching; a protocol switch mid-recording ends one file
 * cleanly and goes on in the next; playdemo shows the demo's world (not the
 * game's), demo seek goes back, stop returns to the game; every mistake
 * gets a clear line.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readDemo } from '../../src/shared/demo/demoFormat';
import { crc32 } from '../../src/node/demo/demoCrc';
import { readFileSync } from 'node:fs';
import type { WorldView } from '../../src/shared/game/view';
import { startTestHost, twoInOneLanGame, until, type TestHost } from '../support/testHost';

const hosts: TestHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
});

async function host(name: string): Promise<TestHost> {
  const h = await startTestHost(name);
  hosts.push(h);
  return h;
}

/** Runs a console line; its output reaches the events on the next turn of the loop. */
async function run(h: TestHost, line: string): Promise<void> {
  await h.run(line);
  await new Promise((r) => setImmediate(r));
}
const views = (h: TestHost): WorldView[] => h.events.flatMap((e) => (e.kind === 'world' ? [e.view] : []));
const lastView = (h: TestHost): WorldView | undefined => views(h).at(-1);
/** Waits until the world the pages are sent has moved on `n` ticks. */
async function ticks(h: TestHost, n: number): Promise<void> {
  const from = views(h).length;
  await until(`${n} more ticks`, () => views(h).length >= from + n, 20_000);
}
const demosDir = (h: TestHost): string => {
  const line = /into (.*)[\\/][^\\/]+\.sldemo; stop ends it/.exec(h.text());
  if (!line) throw new Error('no recording line');
  return line[1] as string;
};

describe('demo commands on the host', () => {
  it('record and stop in practice, demos lists it, timedemo plays it with every digest matching', { timeout: 60_000 }, async () => {
    const h = await host('alice');
    await run(h, 'practice 2 3');
    await run(h, 'record duel');
    expect(h.text()).toMatch(/recording demo duel \(offline\) into .*duel\.sldemo; stop ends it/);
    await ticks(h, 200);
    await run(h, 'stop');
    expect(h.text()).toMatch(/recorded demo duel: \d+\.\d s, \d+ chunks, \d+ KiB/);
    await run(h, 'demos');
    expect(h.text()).toMatch(/1 demo in .*demos:\n {2}duel {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}\d+\.\d s {2}offline {2}3 players/);
    await run(h, 'timedemo duel');
    const line = /timedemo duel: (\d+) frames in [\d.]+ s = \d+ fps \(\d+× real time\); frame time p50 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms; (\d+) of (\d+) digests matched/.exec(h.text());
    expect(line).not.toBeNull();
    console.log(line?.[0]);
    const [frames, matched, checked] = [Number(line?.[1]), Number(line?.[2]), Number(line?.[3])];
    expect(frames).toBeGreaterThanOrEqual(200);
    expect(checked).toBeGreaterThanOrEqual(4);
    expect(matched).toBe(checked);
  });

  it('a protocol switch while recording ends the file cleanly and goes on in the next one, and says so', { timeout: 60_000 }, async () => {
    const h = await host('bob');
    await run(h, 'record trip');
    await ticks(h, 60);
    await run(h, 'protocol p2p');
    await until('the next file', () => /recorded demo trip: .* \(the switch to p2p ended it\); recording goes on in demo trip-2/.test(h.text()));
    await ticks(h, 60);
    await run(h, 'stop');
    expect(h.text()).toMatch(/recorded demo trip-2: /);
    const dir = demosDir(h);
    expect(readdirSync(dir).sort()).toEqual(['trip-2.sldemo', 'trip.sldemo']);
    const first = readDemo(new Uint8Array(readFileSync(join(dir, 'trip.sldemo'))), crc32);
    expect(first.ok && first.stop).toMatchObject({ how: 'clean', reason: 'switched to p2p' });
    const second = readDemo(new Uint8Array(readFileSync(join(dir, 'trip-2.sldemo'))), crc32);
    expect(second.ok && second.header.protocol).toBe('p2p');
    for (const name of ['trip', 'trip-2']) {
      await run(h, `timedemo ${name}`);
      expect(h.text()).toMatch(new RegExp(`timedemo ${name}: \\d+ frames .*; (\\d+) of \\1 digests matched`));
    }
  });

  it('playdemo shows the demo instead of the game; demo seek goes back; stop returns to the game', { timeout: 60_000 }, async () => {
    const h = await host('carol');
    await run(h, 'practice 1 2');
    await run(h, 'record short');
    await ticks(h, 120);
    await run(h, 'stop');
    // The game goes on past the demo's last tick; the demo starts where the recording did.
    await ticks(h, 40);
    const gameTick = lastView(h)?.tick ?? 0;
    await run(h, 'playdemo short');
    expect(h.text()).toMatch(/playing demo short: \d+\.\d s of a offline game recorded by carol — demo pause \| speed <x> \| seek <s> \| camera recorder\|follow\|free; stop ends it/);
    await ticks(h, 20);
    const shown = lastView(h)?.tick ?? 0;
    expect(shown).toBeLessThan(gameTick);
    const status = h.events.flatMap((e) => (e.kind === 'net' && e.delivery.kind === 'players' ? [e.delivery.status] : [])).at(-1);
    expect(status).toMatch(/^demo short: \d+ \/ \d+ s, ×1, the recorder's view$/);
    await run(h, 'demo seek 0');
    await ticks(h, 2);
    expect(lastView(h)?.tick ?? 0).toBeLessThan(shown);
    await run(h, 'demo speed 9');
    expect(h.text()).toMatch(/demo short: \d+ \/ \d+ s, ×4, the recorder's view/);
    await until('the end of the demo', () => /demo short played to its end \((\d+) of \1 digests matched\); stop goes back to the game/.test(h.text()), 20_000);
    await run(h, 'stop');
    expect(h.text()).toMatch(/demo short stopped/);
    await ticks(h, 4);
    expect(lastView(h)?.tick ?? 0).toBeGreaterThan(gameTick);
  });

  it("a peer-to-peer game recorded by one player replays with every digest matching, the other player's ship in it", { timeout: 60_000 }, async () => {
    const [a, b] = await twoInOneLanGame('p2p');
    hosts.push(a, b);
    // Both fly: bravo circles, so alpha's demo holds a moving remote ship.
    const steer = setInterval(() => {
      a.host.game?.setInput({ thrust: 1, yaw: 0.2, pitch: 0, roll: 0, fire: false });
      b.host.game?.setInput({ thrust: 1, yaw: -0.3, pitch: 0.1, roll: 0, fire: true });
    }, 50);
    try {
      await until('alpha hears bravo', () => a.states(1) > 5, 10_000);
      await run(a, 'record lan');
      expect(a.text()).toMatch(/recording demo lan \(p2p\) into /);
      await ticks(a, 160);
      await run(a, 'stop');
    } finally {
      clearInterval(steer);
    }
    await until('the recording line', () => /recorded demo lan: /.test(a.text()));
    const read = readDemo(new Uint8Array(readFileSync(join(demosDir(a), 'lan.sldemo'))), crc32);
    if (!read.ok) throw new Error(read.detail);
    expect(read.header).toMatchObject({ protocol: 'p2p', recorder: { slot: 0, name: 'alpha' }, players: [{ slot: 0, name: 'alpha' }, { slot: 1, name: 'bravo' }] });
    await run(a, 'timedemo lan');
    const line = /timedemo lan: (\d+) frames .*; (\d+) of (\d+) digests matched/.exec(a.text());
    console.log(line?.[0]);
    expect(Number(line?.[1])).toBeGreaterThanOrEqual(160);
    expect(Number(line?.[3])).toBeGreaterThanOrEqual(4);
    expect(line?.[2]).toBe(line?.[3]);
  });

  it('says clearly what it cannot do', { timeout: 30_000 }, async () => {
    const h = await host('dave');
    await run(h, 'stop');
    expect(h.text()).toMatch(/stop: not recording and no demo playing \(record starts a recording\)/);
    await run(h, 'demos');
    expect(h.text()).toMatch(/no demos in .*demos \(record makes one\)/);
    await run(h, 'record ../escape');
    expect(h.text()).toMatch(/record: "\.\.\/escape" is not a demo name: 1 to 64 letters, digits, dots, dashes and underscores/);
    await run(h, 'record one');
    await run(h, 'record two');
    expect(h.text()).toMatch(/record: already recording demo one \(stop ends it\)/);
    await run(h, 'playdemo one');
    expect(h.text()).toMatch(/playdemo: recording demo one; stop it first/);
    await run(h, 'stop');
    await run(h, 'record one');
    expect(h.text()).toMatch(/record: .*one\.sldemo exists already: choose another name/);
    await run(h, 'playdemo nothing');
    expect(h.text()).toMatch(/playdemo: no demo nothing in .*demos \(demos lists them\)/);
    writeFileSync(join(demosDir(h), 'junk.sldemo'), 'not a demo at all');
    await run(h, 'play junk');
    expect(h.text()).toMatch(/play: .*junk\.sldemo is not a Starlane demo: no SLDEMO magic at its start \(bad-magic\)/);
    await run(h, 'demo pause');
    expect(h.text()).toMatch(/demo: no demo is playing \(playdemo <name> plays one; demos lists them\)/);
  });
});
