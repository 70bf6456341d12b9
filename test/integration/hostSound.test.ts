/**
 * The sound kind on a real host (createHost: settings, console, subsystems,
 * the running game): listed by `subsystems`, one sound batch per tick in the
 * same event batch as the tick's world, a laser we fire as a cue, and
 * `sound none` / `sound webaudio` switched live while the game ticks on,
 * remembered for the next start.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../src/node/host/createHost';
import type { HostService } from '../../src/node/host/hostService';
import type { HostEvent } from '../../src/shared/host/contract';
import type { SoundBatch } from '../../src/shared/game/soundCues';
import { NO_INPUT } from '../../src/shared/sim/types';
import { tempDir } from '../support/testRun';
import { waitFor } from '../support/waitFor';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

const hosts: HostService[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
});

async function start(dir = tempDir('host-sound')) {
  const host = await createHost({
    shell: 'browser',
    appVersion: '0.0.0-test',
    userDataDir: dir,
    clientPort: await freeUdpPorts(P2P_PORT_SPAN),
    broadcastAddress: '127.255.255.255',
    lanInterfaces: [],
    log: pino({ level: 'silent' }),
    onQuit: () => undefined,
  });
  hosts.push(host);
  const batches: HostEvent[][] = [];
  host.onEvents((b) => batches.push(b));
  const events = () => batches.flat();
  const sounds = (from = 0): SoundBatch[] => events().slice(from).flatMap((e) => (e.kind === 'sound' ? [e.batch] : []));
  const worlds = (from = 0): number[] => events().slice(from).flatMap((e) => (e.kind === 'world' ? [e.view.tick] : []));
  const run = async (line: string): Promise<string> => {
    // What was queued before (the start-up lines) goes out first.
    await new Promise((r) => setImmediate(r));
    const from = events().length;
    await host.command(line);
    await new Promise((r) => setImmediate(r));
    return events().slice(from).flatMap((e) => (e.kind === 'console' ? [e.text] : [])).join('\n');
  };
  return { host, dir, batches, events, sounds, worlds, run };
}

describe('the sound subsystem on a host', () => {
  it('is listed by subsystems and in the snapshot, webaudio bound, none the other choice', async () => {
    const { host, run } = await start();
    expect(await run('subsystems')).toMatch(/^sound\s+webaudio choices: webaudio, none$/m);
    expect(host.hello().subsystems).toEqual({ packetapi: 'udp', protocol: 'offline', sound: 'webaudio' });
    expect(await run('sound')).toMatch(/^sound is webaudio: the game page plays the game's sounds \(\d+ cues sent\)$/);
  });

  it('sends one sound batch per tick, after that tick\'s world in the same event batch; a laser we fire is a cue on our ship', async () => {
    const h = await start();
    await waitFor('ten ticks', () => h.worlds().length >= 10);
    // Each sound batch follows its tick's world, in the same batch of events.
    let paired = 0;
    for (const batch of h.batches) {
      const ticks = batch.filter((e) => e.kind === 'world' || e.kind === 'sound');
      ticks.forEach((e, i) => {
        if (e.kind !== 'sound') return;
        const before = ticks[i - 1];
        expect(before?.kind === 'world' && before.view.tick === e.batch.tick).toBe(true);
        paired++;
      });
    }
    expect(paired).toBeGreaterThan(5);
    const from = h.events().length;
    let frame = 0;
    // The page sends its input every 25 ms; an input older than 250 ms counts as none.
    const feed = setInterval(() => h.host.frame({ frame: ++frame, tick: 0, input: { ...NO_INPUT, fire: true } }), 20);
    try {
      await waitFor('a laser cue', () => h.sounds(from).some((b) => b.cues.some((c) => c.type === 'laser')));
    } finally {
      clearInterval(feed);
    }
    const laser = h.sounds(from).flatMap((b) => b.cues).find((c) => c.type === 'laser');
    expect(laser).toEqual({ type: 'laser', at: null, from: 0, strength: 0.6 });
    expect(h.sounds(from).at(-1)!.engine).toEqual({ thrust: 0, afterburner: false });
  });

  it('sound none silences the pages while the game ticks on; sound webaudio brings the cues back; the choice is kept', async () => {
    const h = await start();
    await waitFor('ticks', () => h.worlds().length >= 5);
    const off = h.events().length;
    expect(await h.run('sound none')).toMatch(/^sound webaudio -> none: silent/);
    expect(h.events().slice(off).some((e) => e.kind === 'subsystems' && e.bound['sound'] === 'none')).toBe(true);
    // One last batch ends the engine hum and any lock warning on the pages.
    await waitFor('the silencing batch', () => h.sounds(off).length > 0);
    const quiet = h.events().length;
    expect(h.sounds(off).at(-1)).toEqual({ tick: expect.any(Number), cues: [], engine: null, locked: false, listener: null });
    // Forty ticks later (world events come on): not one sound batch.
    await waitFor('forty more ticks', () => h.worlds(quiet).length >= 40);
    expect(h.sounds(quiet)).toEqual([]);
    const ticks = h.worlds(off);
    expect(ticks.every((t, i) => i === 0 || t > ticks[i - 1]!)).toBe(true);

    const on = h.events().length;
    expect(await h.run('sound webaudio')).toMatch(/^sound none -> webaudio: the game page plays the game's sounds/);
    await waitFor('sound batches again', () => h.sounds(on).length >= 5);
    expect(h.host.hello().subsystems['sound']).toBe('webaudio');

    // Kept for the next start: none in the settings, and a host started from them is silent.
    await h.run('sound none');
    await h.host.dispose();
    const again = await start(h.dir);
    expect(again.host.hello().subsystems['sound']).toBe('none');
    await waitFor('ticks on the silent host', () => again.worlds().length >= 10);
    expect(again.sounds()).toEqual([]);
  });

  it('refuses an unknown sound system and keeps the one bound', async () => {
    const { host, run } = await start();
    expect(await run('sound beeper')).toBe("sound beeper failed: unknown sound 'beeper' (choose webaudio or none); still using webaudio");
    expect(host.hello().subsystems['sound']).toBe('webaudio');
  });

  it('the sound cvars are archived, with ranges, and refuse what is out of range', async () => {
    const { host, run } = await start();
    const info = Object.fromEntries(host.hello().cvars.map((c) => [c.name, [c.type, c.default, c.min ?? null, c.max ?? null]]));
    expect([info['volume'], info['s_effects'], info['s_engine'], info['s_mute']]).toEqual([
      ['float', '0.7', 0, 1],
      ['float', '1', 0, 1],
      ['float', '0.6', 0, 1],
      ['bool', '0', null, null],
    ]);
    await run('volume 0.4');
    await run('s_mute 1');
    expect(host.hello().settings.cvars).toMatchObject({ volume: '0.4', s_mute: '1' });
    expect(await run('volume 2')).toMatch(/volume/);
    expect(host.hello().settings.cvars['volume']).toBe('0.4');
  });
});
