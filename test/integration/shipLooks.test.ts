/**
 * A pilot's chosen ship reaches the other players in every network model:
 * three players (three hosts in this process, loopback) choose their looks
 * with the `ship` command — one a design and colour, one a design only,
 * one nothing — and go p2p → slotserver → lockstep → netgame → gameserver.
 * In each game every player's slot table shows the others' choices (and
 * nothing for the one who chose none); a change made during the game
 * reaches the others too. Real servers, real sockets; nothing left open.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { waitFor as until } from '../support/waitFor';
import { startGameserver } from '../../src/node/servers/game/gameserver';
import { startNetgameServer } from '../../src/node/servers/netgame/netgameServer';
import { startSlotserver } from '../../src/node/servers/slot/slotserver';
import { formatLook, LOOK_AUTO, type ShipLook } from '../../src/shared/wire/shipLook';
import { openHandles, SwitchRig, type SwitchPlayer } from '../support/switchRig';

/** What each player's table says of `name`'s look ("auto auto" when absent). */
function looksOf(rig: SwitchRig, name: string): string[] {
  return rig.players.map((p) => {
    const row = rig.lastTable(p)?.players.find((x) => x.name === name);
    return row ? formatLook(row.look ?? { design: LOOK_AUTO, colour: LOOK_AUTO }) : 'missing';
  });
}

const wasp: ShipLook = { design: 1, colour: 1 };

describe('ship looks in every network model', () => {
  it('chosen with `ship`, every player sees every choice in p2p, slotserver, lockstep, netgame and gameserver games, and a change mid-game', { timeout: 90_000 }, async () => {
    const before = openHandles();
    const log = pino({ level: 'silent' });
    const common = { log, port: 0, host: '127.0.0.1', welcome: [] };
    const ss = await startSlotserver({ ...common, name: 'SS', maxPlayers: 8 });
    const gs = await startGameserver({ ...common, name: 'GS', udpPort: 0, maxPlayers: 8 });
    const ng = await startNetgameServer({ name: 'NG', log, port: 0, udpPort: 0, host: '127.0.0.1' });
    const rig = await SwitchRig.start();
    const [alpha, bravo, charlie] = rig.players as [SwitchPlayer, SwitchPlayer, SwitchPlayer];
    try {
      await alpha.host.command('ship wasp orange');
      await bravo.host.command('ship manta');
      const said = (p: SwitchPlayer, line: RegExp) => until(`the console says ${line}`, () => p.lines.some((l) => line.test(l)));
      await said(alpha, /^your ship: wasp orange; every player sees it$/);
      await said(bravo, /^your ship: manta auto \(auto follows your slot in each game\); every player sees it$/);
      await charlie.host.command('ship galleon');
      await said(charlie, /^ship not changed: no design "galleon" \(dart, wasp, manta, auto\)$/);
      expect(formatLook(wasp)).toBe('wasp orange');

      const games: [string, string | undefined][] = [
        ['p2p', undefined],
        ['slotserver', `127.0.0.1:${ss.ports.tcp}`],
        ['lockstep', undefined],
        ['netgame', `127.0.0.1:${ng.ports.tcp}`],
        ['gameserver', `127.0.0.1:${gs.ports.tcp}`],
      ];
      for (const [protocol, target] of games) {
        await rig.switchTo(protocol, target);
        const seen = await until(`${protocol}: every table shows alpha in a wasp in orange and bravo in a manta`, () => {
          const a = looksOf(rig, 'alpha');
          const b = looksOf(rig, 'bravo');
          return a.every((l) => l === 'wasp orange') && b.every((l) => l === 'manta auto') ? { a, b } : null;
        });
        console.log(`${protocol}: alpha seen as ${seen.a.join(' / ')}; bravo as ${seen.b.join(' / ')}; charlie as ${looksOf(rig, 'charlie').join(' / ')}`);
        expect(looksOf(rig, 'charlie')).toEqual(['auto auto', 'auto auto', 'auto auto']);
      }

      // During the gameserver game charlie chooses a look: both others see it.
      await charlie.host.command('ship dart cyan');
      await until('the others see charlie in a cyan dart', () => looksOf(rig, 'charlie').every((l) => l === 'dart cyan'));
      // And back to auto: the others draw charlie by its slot again.
      await charlie.host.command('ship auto auto');
      await until('the others see charlie by its slot again', () => looksOf(rig, 'charlie').every((l) => l === 'auto auto'));
    } finally {
      await rig.dispose();
      await gs.close();
      await ng.close();
      await ss.close();
    }
    await until('sockets released', () => {
      const after = openHandles();
      return after.udp === before.udp && after.tcp === before.tcp;
    });
  });
});
