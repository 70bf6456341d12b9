/**
 * `host netgame`: a player's game starts a netgame server inside itself and
 * joins it as player 0; a second player connects to it; both see both
 * ships. When the host leaves, the other is told and returns to offline
 * play, and nothing is left open.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostService } from '../../src/node/host/hostService';
import { startTestHost, until, type TestHost } from '../support/testHost';
import { openHandles } from '../support/switchRig';

const started: HostService[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((h) => h.dispose()));
});

describe('a netgame hosted by a player', () => {
  it('the host is player 0, a second player joins it, and when the host leaves the other is told and goes back offline', { timeout: 30_000 }, async () => {
    const before = openHandles();
    const alpha: TestHost = await startTestHost('alpha');
    const bravo: TestHost = await startTestHost('bravo');
    started.push(alpha.host, bravo.host);
    await alpha.host.command('host netgame');
    const hosting = await until('alpha hosting', () => /hosting netgame "alpha's netgame" on tcp (\d+), udp \d+/.exec(alpha.text()));
    const port = hosting[1];
    await until('alpha is player 0 of its netgame', () => /joined netgame "alpha's netgame" as slot 0/.test(alpha.text()));
    await bravo.host.command('protocol netgame');
    await bravo.host.command(`connect 127.0.0.1:${port}`);
    await until('bravo in the netgame', () => /in the netgame as slot 1 from frame \d+/.test(bravo.text()));
    const ships = (t: TestHost) => t.host.game?.game.curr.ships.map((s) => s.slot).sort() ?? [];
    await until('both games show both ships', () => [alpha, bravo].every((t) => ships(t).join() === '0,1'));
    const table = (t: TestHost) => (t.deliveries('players').at(-1)?.players ?? []).map((p) => `${p.slot}:${p.name}:${p.joined ? 'joined' : '-'}`);
    await until('both tables list both joined', () => [alpha, bravo].every((t) => table(t).join() === '0:alpha:joined,1:bravo:joined'));
    // Same control lead as everyone: the host's own player has the seed's 3, like a LAN client.
    await alpha.host.command('players');
    await until('alpha lists its netgame figures', () => /netgame: frame \d+, server \d+ frames ahead, control lead 3/.test(alpha.text()));

    await alpha.host.command('disconnect');
    // Told that the host left (not that a server removed it), and what it can do next.
    await until('bravo is told the game is gone', () => /^the netgame "alpha's netgame" closed: its host left the game\. You are not in a game — host netgame starts your own, or connect host\[:port\] joins another$/m.test(bravo.text()), 10_000);
    expect(bravo.text()).not.toMatch(/removed you/);
    await until('bravo plays offline again', () => bravo.deliveries('players').at(-1)?.localSlot === null);
    await Promise.all(started.splice(0).map((h) => h.dispose()));
    await until('sockets released', () => {
      const after = openHandles();
      return after.udp === before.udp && after.tcp === before.tcp;
    });
    expect(openHandles()).toEqual(before);
  });
});
