import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputState } from '../../../src/renderer/src/game/input';
import { defaultBindTable } from '../../../src/shared/settings/bindings';

/** The page's window and document as far as InputState reads them, with the pointer locked to `view`. */
const view = Object.assign(new EventTarget(), { requestPointerLock: () => undefined }) as unknown as HTMLElement;
const saved = { window: globalThis.window, document: globalThis.document };

beforeEach(() => {
  Object.assign(globalThis, { window: new EventTarget(), document: { pointerLockElement: view, exitPointerLock: () => undefined } });
});
afterEach(() => {
  Object.assign(globalThis, saved);
});

/** The pitch of one sample after the mouse moved `dy` pixels (negative: forward). */
function pitchAfter(input: InputState, dy: number): number {
  window.dispatchEvent(Object.assign(new Event('mousemove'), { movementX: 0, movementY: dy }));
  return input.sample().pitch;
}

describe('mouse pitch and m_invert', () => {
  it('the mouse moved forward climbs; with invertMouse (m_invert 1) it dives', () => {
    const input = new InputState(defaultBindTable());
    const detach = input.attach(view);
    expect(pitchAfter(input, -10)).toBeGreaterThan(0);
    input.invertMouse = true;
    expect(pitchAfter(input, -10)).toBeLessThan(0);
    expect(pitchAfter(input, 10)).toBeGreaterThan(0);
    detach();
  });
});
