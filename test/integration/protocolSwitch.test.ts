/**
 * Live protocol switching: three players move p2p → gameserver →
 * slotserver → p2p while running, ending in one consistent game each time,
 * and nothing is left open afterwards.
 */
import pino from 'pino';
import { describe, it } from 'vitest';
import { waitFor as until } from '../support/waitFor';
import { startGameserver } from '../../src/node/servers/game/gameserver';
import { startSlotserver } from '../../src/node/servers/slot/slotserver';
import { openHandles, SwitchRig } from '../support/switchRig';

describe('live protocol switching', () => {
  it('three players go p2p → gameserver → slotserver → p2p, one consistent game each time, no leaks', { timeout: 60_000 }, async () => {
    const before = openHandles();
    const log = pino({ level: 'silent' });
    const gs = await startGameserver({ name: 'GS', log, port: 0, udpPort: 0, host: '127.0.0.1', maxPlayers: 8, welcome: [] });
    const ss = await startSlotserver({ name: 'SS', log, port: 0, host: '127.0.0.1', maxPlayers: 8, welcome: [] });
    const rig = await SwitchRig.start();
    const phases: [string, string | undefined][] = [
      ['p2p', undefined],
      ['gameserver', `127.0.0.1:${gs.ports.tcp}`],
      ['slotserver', `127.0.0.1:${ss.ports.tcp}`],
      ['p2p', undefined],
    ];
    const times: string[] = [];
    for (const [protocol, target] of phases) times.push(`${protocol} ${(await rig.switchTo(protocol, target)).toFixed(0)} ms`);
    console.log(`protocol switches (three players, command to one consistent game): ${times.join(', ')}`);

    await rig.dispose();
    await gs.close();
    await ss.close();
    await until('sockets released', () => {
      const after = openHandles();
      return after.udp === before.udp && after.tcp === before.tcp;
    });
  });
});
