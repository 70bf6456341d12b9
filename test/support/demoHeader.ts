/**
 * A plausible demo header for the demo tests and their recorder
 * (docs/DEMO.md), with what a test needs changed.
 */
import { DEMO_FORMAT, type DemoHeader } from '../../src/shared/demo/demoFormat';

export function demoHeader(changes: Partial<DemoHeader> = {}): DemoHeader {
  return {
    demo: DEMO_FORMAT,
    starlane: '0.1.0',
    wire: 14,
    sim: 'bd2957211ca905b0',
    protocol: 'gameserver',
    seed: 2049,
    server: '127.0.0.1:6580',
    recorder: { slot: 2, name: 'alice' },
    players: [
      { slot: 0, name: 'hunter-1' },
      { slot: 2, name: 'alice' },
    ],
    startedAt: '2026-12-01T20:00:00.000Z',
    ...changes,
  };
}
