/** Fake subsystem implementations for the jump-table and registry unit tests. */
import type { Subsystem } from '../../src/shared/subsystems/jumpTable';

/** A fake subsystem that records its lifecycle into a shared journal (jump-table unit tests). */
export interface Fake extends Subsystem {
  readonly name: string;
  greet(who: string): string;
  readonly started: boolean;
  inits: number;
}

export type Deferred = { promise: Promise<void>; resolve: () => void };
export function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export function makeFake(name: string, journal: string[], behaviour: { failInit?: boolean; gate?: Deferred } = {}): Fake {
  let started = false;
  return {
    name,
    inits: 0,
    get started() {
      return started;
    },
    async init(options?: unknown) {
      journal.push(`init ${name}${options === undefined ? '' : ` ${JSON.stringify(options)}`}`);
      this.inits++;
      if (behaviour.gate) await behaviour.gate.promise;
      started = true;
      if (behaviour.failInit) throw new Error(`${name} cannot open its device`);
    },
    async kill() {
      journal.push(`kill ${name}`);
      started = false;
    },
    greet(who: string) {
      if (!started) throw new Error(`${name} used while not started`);
      return `${name} greets ${who}`;
    },
  };
}
