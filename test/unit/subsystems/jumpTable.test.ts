import { describe, it, expect } from 'vitest';
import { SubsystemKind } from '../../../src/shared/subsystems/jumpTable';
import { deferred, makeFake, type Fake } from '../../support/fakeSubsystem';

function setup(behaviours: Record<string, Parameters<typeof makeFake>[2]> = {}) {
  const journal: string[] = [];
  const instances: Record<string, Fake> = {};
  const factories: Record<string, () => Fake> = {};
  for (const name of ['alpha', 'beta', 'broken']) {
    factories[name] = () => (instances[name] = makeFake(name, journal, behaviours[name] ?? (name === 'broken' ? { failInit: true } : {})));
  }
  const kind = new SubsystemKind<Fake>('widget', factories);
  return { journal, instances, kind };
}

describe('SubsystemKind jump table', () => {
  it('forwards calls through the table to the bound implementation, including after a rebind', async () => {
    const { kind } = setup();
    expect(await kind.bind('alpha')).toEqual({ ok: true, from: null, to: 'alpha' });
    const greet = kind.table.greet; // a method reference taken before the rebind
    expect(kind.table.greet('you')).toBe('alpha greets you');
    expect(kind.table.name).toBe('alpha');
    await kind.bind('beta');
    expect(kind.table.greet('you')).toBe('beta greets you');
    expect(greet('me')).toBe('beta greets me');
    expect(kind.table.started).toBe(true);
    expect(kind.bound()).toBe('beta');
    expect(kind.names()).toEqual(['alpha', 'beta', 'broken']);
  });

  it('kills the old implementation before initialising the new one', async () => {
    const { kind, journal } = setup();
    await kind.bind('alpha');
    await kind.bind('beta');
    expect(journal).toEqual(['init alpha', 'kill alpha', 'init beta']);
  });

  it('re-inits the bound implementation when its own name is bound again (vid_restart)', async () => {
    const { kind, journal, instances } = setup();
    await kind.bind('alpha');
    expect(await kind.bind('alpha')).toEqual({ ok: true, from: 'alpha', to: 'alpha' });
    expect(journal).toEqual(['init alpha', 'kill alpha', 'init alpha']);
    expect(instances['alpha']?.inits).toBe(2);
  });

  it('passes the per-kind init options, read fresh at each bind', async () => {
    const journal: string[] = [];
    let port = 6526;
    const kind = new SubsystemKind<Fake>('packetapi', { udp: () => makeFake('udp', journal) }, { initOptions: () => ({ port }) });
    await kind.bind('udp');
    port = 6527;
    await kind.bind('udp');
    expect(journal).toEqual(['init udp {"port":6526}', 'kill udp', 'init udp {"port":6527}']);
  });

  it('restores the previous binding and reports why when init of the new one fails', async () => {
    const { kind, journal } = setup();
    await kind.bind('alpha');
    const result = await kind.bind('broken');
    expect(result).toEqual({
      ok: false,
      error: "widget 'broken' failed to start: broken cannot open its device",
      restored: 'alpha',
    });
    // The half-opened one is killed before the previous one is re-bound and re-inited.
    expect(journal).toEqual(['init alpha', 'kill alpha', 'init broken', 'kill broken', 'init alpha']);
    expect(kind.bound()).toBe('alpha');
    expect(kind.table.greet('x')).toBe('alpha greets x');
  });

  it('stays unbound with restored null when the first bind fails', async () => {
    const { kind } = setup();
    const result = await kind.bind('broken');
    expect(result).toMatchObject({ ok: false, restored: null });
    expect(kind.bound()).toBeNull();
  });

  it('rejects an unknown name with the choices and leaves the binding alone', async () => {
    const { kind, journal } = setup();
    await kind.bind('alpha');
    const udp = new SubsystemKind<Fake>('packetapi', { udp: () => makeFake('udp', []), udp6: () => makeFake('udp6', []) });
    expect(await udp.bind('xyz')).toEqual({ ok: false, error: "unknown packetapi 'xyz' (choose udp or udp6)", restored: null });
    expect(await kind.bind('gamma')).toEqual({
      ok: false,
      error: "unknown widget 'gamma' (choose alpha, beta or broken)",
      restored: 'alpha',
    });
    expect(journal).toEqual(['init alpha']);
    expect(kind.table.greet('x')).toBe('alpha greets x');
  });

  it('serialises concurrent binds instead of interleaving them', async () => {
    const gate = deferred();
    const { kind, journal } = setup({ alpha: { gate } });
    const first = kind.bind('alpha'); // stalls inside init until the gate opens
    const second = kind.bind('beta');
    const third = kind.bind('alpha');
    await Promise.resolve();
    await Promise.resolve();
    expect(journal).toEqual(['init alpha']); // beta must wait for alpha's init to finish
    gate.resolve();
    expect(await first).toEqual({ ok: true, from: null, to: 'alpha' });
    expect(await second).toEqual({ ok: true, from: 'alpha', to: 'beta' });
    expect(await third).toEqual({ ok: true, from: 'beta', to: 'alpha' });
    expect(journal).toEqual(['init alpha', 'kill alpha', 'init beta', 'kill beta', 'init alpha']);
  });

  it('throws a clear error when used through an unbound table', async () => {
    const { kind } = setup();
    expect(() => kind.table.greet('x')).toThrow(/widget: no implementation bound.*'greet'.*alpha, beta or broken/);
    await kind.bind('alpha');
    const greet = kind.table.greet;
    await kind.unbind();
    expect(kind.bound()).toBeNull();
    expect(() => greet('x')).toThrow(/widget: no implementation bound/);
    expect(() => kind.table.started).toThrow(/no implementation bound/);
    // `await table` and inspection must not blow up.
    expect((kind.table as unknown as { then?: unknown }).then).toBeUndefined();
  });

  it('refuses writes through the table', async () => {
    const { kind } = setup();
    await kind.bind('alpha');
    expect(() => {
      (kind.table as unknown as { inits: number }).inits = 5;
    }).toThrow(/read-only/);
  });

  it('notifies change listeners after successful binds and restores, until unsubscribed', async () => {
    const { kind } = setup();
    const seen: string[] = [];
    const off = kind.onChange((c) => {
      seen.push(`${c.kind} ${c.from ?? '-'}->${c.to}${c.restored ? ' (restored)' : ''}`);
      // Listeners run after the table points at the new implementation.
      expect(kind.table.name).toBe(c.to);
    });
    await kind.bind('alpha');
    await kind.bind('beta');
    await kind.bind('broken');
    await kind.bind('nope');
    off();
    await kind.bind('alpha');
    expect(seen).toEqual(['widget -->alpha', 'widget alpha->beta', 'widget -->beta (restored)']);
  });

  it('survives a throwing kill and a throwing listener, reporting both to the log hook', async () => {
    const lines: string[] = [];
    const bad: Fake = { ...makeFake('bad', []), kill: () => Promise.reject(new Error('device stuck')) };
    const kind = new SubsystemKind<Fake>('widget', { bad: () => bad, good: () => makeFake('good', []) }, { log: (l) => lines.push(l) });
    kind.onChange(() => {
      throw new Error('listener broke');
    });
    await kind.bind('bad');
    expect(await kind.bind('good')).toEqual({ ok: true, from: 'bad', to: 'good' });
    expect(lines).toEqual([
      'widget change listener failed: listener broke',
      "widget 'bad' kill failed: device stuck",
      'widget change listener failed: listener broke',
    ]);
  });
});
