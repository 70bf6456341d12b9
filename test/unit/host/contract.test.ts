import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_COMMAND_LENGTH, parseShipInput, parseUpMessage } from '../../../src/shared/host/contract';
import { isTrustedSender } from '../../../src/shared/host/trust';

describe('host messages from the renderer', () => {
  it('accepts each well-formed message', () => {
    expect(parseUpMessage({ t: 'hello', id: 1 })).toEqual({ ok: true, value: { t: 'hello', id: 1 } });
    expect(parseUpMessage({ t: 'command', line: 'name x' })).toMatchObject({ ok: true });
    expect(parseUpMessage({ t: 'complete', id: 2, line: 'pa' })).toMatchObject({ ok: true });
    const stats = { tickHz: 40, fps: 60, frameMsP50: 16, frameMsP95: 17, frameMsP99: 18, windowS: 5, ticks: 200, frames: 300 };
    expect(parseUpMessage({ t: 'frame', batch: { frame: 3, tick: 2, stats } })).toEqual({ ok: true, value: { t: 'frame', batch: { frame: 3, tick: 2, stats } } });
  });

  it('drops malformed messages with a reason', () => {
    const cases: [unknown, string][] = [
      [null, 'not-object'],
      [{ t: 'warp' }, 'unknown-type'],
      [{ t: 'hello', id: -1 }, 'bad-id'],
      [{ t: 'command', line: 5 }, 'command-not-string'],
      [{ t: 'command', line: 'x'.repeat(MAX_COMMAND_LENGTH + 1) }, 'command-too-long'],
      [{ t: 'frame', batch: { frame: 1.5, tick: 0 } }, 'frame-bad-counter'],
      [{ t: 'frame', batch: { frame: 1, tick: 0, stats: { tickHz: NaN } } }, 'frame-bad-stats'],
    ];
    for (const [raw, reason] of cases) expect(parseUpMessage(raw)).toEqual({ ok: false, reason });
  });

  it('never throws on arbitrary JSON and keeps no unknown fields', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (raw) => {
        const parsed = parseUpMessage(raw);
        if (parsed.ok && parsed.value.t === 'frame') {
          expect(Object.keys(parsed.value.batch).sort()).toEqual(expect.arrayContaining(['frame', 'tick']));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('ship input from the renderer', () => {
  const base = { thrust: 1, yaw: -0.5, pitch: 0, roll: 0, fire: false };

  it('accepts the five old fields alone (the optional ones stay absent)', () => {
    expect(parseShipInput(base)).toEqual(base);
  });

  it('accepts the optional triggers and a target, and drops unknown fields', () => {
    const full = { ...base, afterburner: true, missile: false, mine: true, emp: false, target: 15 };
    expect(parseShipInput({ ...full, warp: 9 })).toEqual(full);
    expect(parseShipInput({ ...base, target: -1 })).toEqual({ ...base, target: -1 });
    expect(parseShipInput({ ...base, target: 0, missile: true })).toEqual({ ...base, target: 0, missile: true });
  });

  it('refuses bad triggers and targets', () => {
    for (const bad of [
      { afterburner: 1 },
      { missile: 'yes' },
      { mine: null },
      { emp: {} },
      { target: -2 },
      { target: 255 },
      { target: 1.5 },
      { target: '3' },
      { target: null },
      { target: NaN },
    ]) {
      expect(parseShipInput({ ...base, ...bad })).toBeNull();
    }
    expect(parseUpMessage({ t: 'frame', batch: { frame: 1, tick: 0, input: { ...base, target: 300 } } })).toEqual({ ok: false, reason: 'frame-bad-input' });
  });

  it('keeps only known fields of any accepted input', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const parsed = parseShipInput({ ...base, afterburner: a, target: b });
        if (parsed) {
          expect(Object.keys(parsed).every((k) => ['thrust', 'yaw', 'pitch', 'roll', 'fire', 'afterburner', 'target'].includes(k))).toBe(true);
          expect(typeof parsed.afterburner).toBe('boolean');
          expect(Number.isInteger(parsed.target)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('Electron sender check', () => {
  const game = 'file:///opt/starlane/out/renderer/index.html';
  const sender = (frameUrl: string | null, isGameWindow = true, isMainFrame = true) => ({ isGameWindow, isMainFrame, frameUrl });

  it('trusts only the game window main frame at the game page', () => {
    expect(isTrustedSender(sender(game), game)).toBe(true);
    expect(isTrustedSender(sender(`${game}?x=1#y`), game)).toBe(true);
  });

  it('refuses other windows, subframes, other pages and unparsable URLs', () => {
    expect(isTrustedSender(sender(game, false), game)).toBe(false);
    expect(isTrustedSender(sender(game, true, false), game)).toBe(false);
    expect(isTrustedSender(sender('file:///tmp/evil.html'), game)).toBe(false);
    expect(isTrustedSender(sender('https://example.com/index.html'), game)).toBe(false);
    expect(isTrustedSender(sender(null), game)).toBe(false);
    expect(isTrustedSender(sender('not a url'), game)).toBe(false);
  });
});
