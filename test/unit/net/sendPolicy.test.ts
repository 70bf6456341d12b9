import { describe, expect, it } from 'vitest';
import { KEEPALIVE_MS, sendDecision, type SendMemory } from '../../../src/shared/net/sendPolicy';
import type { ShipState } from '../../../src/shared/wire/types';
import { shipState } from '../../support/ships';

const ship = shipState;

/** Runs the policy every 5 ms for `ms` and returns the send times. */
function simulate(ms: number, hz: number, stateAt: (t: number) => ShipState, eventAt: (t: number) => boolean = () => false): number[] {
  let memory: SendMemory = { at: -Infinity, key: '' };
  const sent: number[] = [];
  for (let t = 0; t <= ms; t += 5) {
    const d = sendDecision(memory, t, hz, stateAt(t), eventAt(t));
    if (d.send) {
      memory = d.memory;
      sent.push(t);
    }
  }
  return sent;
}

describe('send policy (send frequency and dead reckoning)', () => {
  it('sends at the send frequency while the state keeps changing', () => {
    const sent = simulate(2000, 20, (t) => ship({ vel: { x: t, y: 0, z: 0 } }));
    expect(sent.length).toBeGreaterThanOrEqual(40);
    expect(sent.length).toBeLessThanOrEqual(41);
  });

  it('a ship flying straight sends only keep-alives (position is predictable)', () => {
    const sent = simulate(5000, 20, (t) => ship({ pos: { x: 0, y: 0, z: -t / 20 } }));
    expect(sent.length).toBe(Math.floor(5000 / KEEPALIVE_MS) + 1);
    for (let i = 1; i < sent.length; i++) expect((sent[i] as number) - (sent[i - 1] as number)).toBeLessThanOrEqual(KEEPALIVE_MS);
  });

  it('a pending event goes out at the next send slot even when the state is unchanged', () => {
    const sent = simulate(1000, 20, () => ship(), (t) => t === 200);
    expect(sent).toContain(200);
  });

  it('clamps the frequency to 5..60 Hz', () => {
    const changing = (t: number) => ship({ energy: t % 100 });
    expect(simulate(1000, 500, changing).length).toBeLessThanOrEqual(61);
    expect(simulate(1000, 1, changing).length).toBeGreaterThanOrEqual(5);
  });
});
