/**
 * The before-kill and after-bind hooks: a kind that others use stops them
 * while its outgoing implementation still works, and starts them again on
 * whatever is bound after, whatever the bind's outcome.
 */
import { describe, it, expect } from 'vitest';
import { SubsystemKind, type BindResult } from '../../../src/shared/subsystems/jumpTable';
import { makeFake, type Fake } from '../../support/fakeSubsystem';

/** A packet layer and a protocol on top of it, wired as createSubsystems wires the real ones. */
function layered(journal: string[]) {
  let stopped: string | null = null;
  const packet: SubsystemKind<Fake> = new SubsystemKind<Fake>(
    'packetapi',
    { udp: () => makeFake('udp', journal), udp6: () => makeFake('udp6', journal), broken: () => makeFake('broken', journal, { failInit: true }) },
    {
      beforeKill: async (impl) => {
        journal.push(`before kill ${impl.name}`);
        stopped = (await protocol.unbind()) ?? stopped;
      },
      afterBind: async () => {
        const name = stopped;
        stopped = null;
        if (name !== null) await protocol.bind(name);
      },
    },
  );
  // The protocol says goodbye through the packet layer's table when it stops.
  const goodbye = (name: string): Fake => {
    const fake = makeFake(name, journal);
    return { ...fake, kill: async () => (journal.push(`${name} says: ${packet.table.greet('bye')}`), fake.kill()) };
  };
  const protocol = new SubsystemKind<Fake>('protocol', { p2p: () => goodbye('p2p') });
  return { packet, protocol };
}

describe('kill order between kinds', () => {
  it('a switch of the packet layer stops the protocol first, through the old implementation, and restarts it on the new one', async () => {
    const journal: string[] = [];
    const { packet, protocol } = layered(journal);
    await packet.bind('udp');
    await protocol.bind('p2p');
    journal.length = 0;
    expect(await packet.bind('udp6')).toEqual({ ok: true, from: 'udp', to: 'udp6' });
    expect(journal).toEqual(['before kill udp', 'p2p says: udp greets bye', 'kill p2p', 'kill udp', 'init udp6', 'init p2p']);
    expect(protocol.bound()).toBe('p2p');
  });

  it('a failed switch restarts the protocol on the implementation restored', async () => {
    const journal: string[] = [];
    const { packet, protocol } = layered(journal);
    await packet.bind('udp');
    await protocol.bind('p2p');
    journal.length = 0;
    expect(await packet.bind('broken')).toMatchObject({ ok: false, restored: 'udp' });
    expect(journal).toEqual(['before kill udp', 'p2p says: udp greets bye', 'kill p2p', 'kill udp', 'init broken', 'before kill broken', 'kill broken', 'init udp', 'init p2p']);
    expect(protocol.bound()).toBe('p2p');
  });

  it('shutting the packet layer down stops the protocol and does not restart it', async () => {
    const journal: string[] = [];
    const { packet, protocol } = layered(journal);
    await packet.bind('udp');
    await protocol.bind('p2p');
    expect(await packet.unbind()).toBe('udp');
    expect(protocol.bound()).toBeNull();
    expect(journal.slice(-3)).toEqual(['p2p says: udp greets bye', 'kill p2p', 'kill udp']);
  });

  it('after-bind sees every outcome, once the change listeners have run', async () => {
    const seen: string[] = [];
    const outcome = (r: BindResult) => (r.ok ? `ok ${r.to}` : `failed, restored ${r.restored}`);
    const kind: SubsystemKind<Fake> = new SubsystemKind<Fake>(
      'widget',
      { alpha: () => makeFake('alpha', []), broken: () => makeFake('broken', [], { failInit: true }) },
      { afterBind: (r) => void seen.push(`after: ${outcome(r)}`) },
    );
    kind.onChange((c) => void seen.push(`listener: ${c.to}`));
    await kind.bind('alpha');
    await kind.bind('broken');
    await kind.bind('nope');
    expect(seen).toEqual(['listener: alpha', 'after: ok alpha', 'listener: alpha', 'after: failed, restored alpha', 'after: failed, restored alpha']);
  });

  it('a throwing hook is logged and the kill and the bind still happen', async () => {
    const lines: string[] = [];
    const journal: string[] = [];
    const kind = new SubsystemKind<Fake>(
      'widget',
      { alpha: () => makeFake('alpha', journal), beta: () => makeFake('beta', journal) },
      {
        beforeKill: () => {
          throw new Error('dependant stuck');
        },
        afterBind: () => Promise.reject(new Error('restart failed')),
        log: (l) => lines.push(l),
      },
    );
    await kind.bind('alpha');
    expect(await kind.bind('beta')).toEqual({ ok: true, from: 'alpha', to: 'beta' });
    expect(journal).toEqual(['init alpha', 'kill alpha', 'init beta']);
    expect(lines).toEqual(['widget afterBind hook failed: restart failed', 'widget beforeKill hook failed: dependant stuck', 'widget afterBind hook failed: restart failed']);
  });
});
