import { describe, it, expect } from 'vitest';
import { SubsystemKind } from '../../../src/shared/subsystems/jumpTable';
import { SubsystemRegistry } from '../../../src/shared/subsystems/registry';
import { makeFake, type Fake } from '../../support/fakeSubsystem';

function kinds(journal: string[]) {
  const packet = new SubsystemKind<Fake, 'packetapi'>('packetapi', { udp: () => makeFake('udp', journal), udp6: () => makeFake('udp6', journal) });
  const protocol = new SubsystemKind<Fake, 'protocol'>('protocol', { offline: () => makeFake('offline', journal) });
  return { packet, protocol };
}

describe('SubsystemRegistry', () => {
  it('lists and describes every kind in registration order and kills them all, the last registered first', async () => {
    const journal: string[] = [];
    const { packet, protocol } = kinds(journal);
    const registry = new SubsystemRegistry([packet, protocol]);
    expect(registry.describe()).toEqual({ packetapi: null, protocol: null });
    expect(registry.list().map((k) => `${k.kindName}: ${k.names().join(' ')}`)).toEqual(['packetapi: udp udp6', 'protocol: offline']);
    await packet.bind('udp6');
    await protocol.bind('offline');
    expect(registry.describe()).toEqual({ packetapi: 'udp6', protocol: 'offline' });
    await registry.killAll();
    expect(journal.slice(-2)).toEqual(['kill offline', 'kill udp6']);
    expect(registry.describe()).toEqual({ packetapi: null, protocol: null });
  });

  it('refuses two kinds of one name', () => {
    const { packet, protocol } = kinds([]);
    expect(() => new SubsystemRegistry([packet, protocol, new SubsystemKind<Fake>('protocol', {})])).toThrow("subsystem kind 'protocol' registered twice");
  });
});
