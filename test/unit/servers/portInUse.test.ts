import { describe, expect, it } from 'vitest';
import { explainPortInUse, PortInUseError } from '../../../src/node/servers/common/portInUse';

const OPTIONS = { TCP: '--port', UDP: '--udp-port', HTTP: '--http-port' } as const;

describe('a port another program holds', () => {
  it('is named with the option that changes it, and the address only when the server was told one', () => {
    expect(String(explainPortInUse('gameserver', new PortInUseError('TCP', 6581, '0.0.0.0'), OPTIONS))).toBe('Error: gameserver: TCP port 6581 is in use (change it with --port)');
    expect(String(explainPortInUse('netgame', new PortInUseError('UDP', 6524, '::', 'netgame'), OPTIONS))).toBe('Error: netgame: UDP port 6524 is in use (change it with --udp-port)');
    expect(String(explainPortInUse('slotserver', new PortInUseError('HTTP', 8082, '10.0.0.5'), OPTIONS))).toBe('Error: slotserver: HTTP port 8082 on 10.0.0.5 is in use (change it with --http-port)');
  });

  it('leaves every other start-up error as it was', () => {
    const other = new Error('slotserver: cannot read ban file');
    expect(explainPortInUse('slotserver', other, OPTIONS)).toBe(other);
  });

});
