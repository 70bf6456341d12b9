/**
 * The sound kind's implementations (src/node/subsystems/sound.ts) through
 * its jump table: webaudio listens to the ticks and sends a batch per tick,
 * none sends nothing; a switch unsubscribes and silences; a process with no
 * pages (a bot) is offered only none.
 */
import { describe, expect, it } from 'vitest';
import { createSoundKind, type SoundPort, type SoundTick } from '../../../src/node/subsystems/sound';
import { createSubsystems } from '../../../src/node/subsystems';
import type { SoundBatch } from '../../../src/shared/game/soundCues';
import type { WorldView } from '../../../src/shared/game/view';
import { NO_INPUT } from '../../../src/shared/sim/types';

const view = (tick: number, objects: WorldView['objects'] = []): WorldView => ({
  tick, localSlot: 0, respawnSeconds: null, ships: [], objects, asteroids: [], scores: [],
  match: { phase: 0, secondsLeft: null, killLimit: 10, timeLimitS: 600, round: 0 }, lockedBy: [], bots: [], pings: [],
});
const laser = (owner: number, id: number) => ({ kind: 'laser' as const, owner, id, pos: { x: 1, y: 2, z: 3 }, vel: { x: 0, y: 0, z: 0 } });

/** The game's side of the port: ticks run by hand, batches recorded. */
function port() {
  const listeners = new Set<(t: SoundTick) => void>();
  const sent: SoundBatch[] = [];
  const p: SoundPort = {
    ticks: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    send: (b) => sent.push(b),
  };
  const tick = (v: WorldView) => listeners.forEach((l) => l({ view: v, events: [], notices: [], input: NO_INPUT }));
  return { p, sent, tick, listening: () => listeners.size };
}

describe('the sound kind', () => {
  it('webaudio sends a batch per tick with the cues against the tick before; none sends nothing', async () => {
    const { p, sent, tick, listening } = port();
    const kind = createSoundKind(p);
    expect(kind.names()).toEqual(['webaudio', 'none']);
    expect(await kind.bind('webaudio')).toEqual({ ok: true, from: null, to: 'webaudio' });
    tick(view(1));
    tick(view(2, [laser(3, 1)]));
    expect(sent.map((b) => [b.tick, b.cues.map((c) => `${c.type} from ${c.from}`)])).toEqual([[1, []], [2, ['laser from 3']]]);
    expect(kind.table.cuesSent()).toBe(1);

    expect(await kind.bind('none')).toMatchObject({ ok: true, from: 'webaudio', to: 'none' });
    expect(listening()).toBe(0);
    // The switch ends what lasts (the hum, the lock warning) with one silent batch.
    expect(sent.at(-1)).toEqual({ tick: 2, cues: [], engine: null, locked: false, listener: null });
    const count = sent.length;
    tick(view(3, [laser(3, 2)]));
    expect(sent.length).toBe(count);

    // Back on: the first tick has nothing to compare with, so an object already flying is no new shot.
    await kind.bind('webaudio');
    tick(view(4, [laser(3, 2)]));
    tick(view(5, [laser(3, 2), laser(3, 3)]));
    expect(sent.slice(count).map((b) => b.cues.length)).toEqual([0, 1]);
    await kind.unbind();
    expect(listening()).toBe(0);
  });

  it('without pages (a bot, a server) only none is offered', async () => {
    const kind = createSoundKind(undefined);
    expect(kind.names()).toEqual(['none']);
    expect(await kind.bind('webaudio')).toMatchObject({ ok: false, error: "unknown sound 'webaudio' (choose none)" });
    const set = createSubsystems();
    expect(set.sound.names()).toEqual(['none']);
    expect(set.list().map((k) => k.kindName)).toEqual(['packetapi', 'protocol', 'sound']);
  });
});
