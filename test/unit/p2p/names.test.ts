/**
 * Unique names in a peer-to-peer game (src/shared/p2p/names.ts): a player
 * whose name another player already has is renamed "name-<slot+1>" and told
 * so; the player who had it first keeps it, at start-up, when entering a
 * running game and after the `name` command.
 */
import { describe, expect, it } from 'vitest';
import { suffixedName } from '../../../src/shared/p2p/names';
import { agreedTable, noticesOf, SimNet, type SimNode } from '../../support/simnet';

/** name of each slot as `node` sees it, e.g. "0:pilot 1:pilot-2". */
const namesSeenBy = (node: SimNode) =>
  node.peer
    .players()
    .map((p) => `${p.slot}:${p.name}`)
    .join(' ');

/** True when every connected node has the same table with the same names. */
function namesAgree(nodes: readonly SimNode[]): boolean {
  const first = nodes[0];
  return first !== undefined && agreedTable(nodes) !== null && nodes.every((n) => n.peer.state === 'connected' && namesSeenBy(n) === namesSeenBy(first));
}

/** True when no two players in `node`'s table share a name (ignoring case). */
const namesUnique = (node: SimNode) => {
  const names = node.peer.players().map((p) => p.name.toLowerCase());
  return new Set(names).size === names.length;
};

function start(net: SimNet, named: readonly [number, string][]): SimNode[] {
  const nodes = named.map(([i, name]) => net.addNode(i, { name }));
  for (const n of nodes) net.connect(n);
  return nodes;
}

describe('players who start a game together with the same name', () => {
  it('two "pilot"s: the one in slot 0 stays pilot, the other plays as pilot-2 and is the only one told', () => {
    const net = new SimNet({ seed: 11 });
    const [low, high] = start(net, [
      [1, 'pilot'],
      [2, 'pilot'],
    ]) as [SimNode, SimNode];
    expect(net.runUntil(() => namesAgree([low, high]) && namesUnique(low), 3000)).toBe(true);
    // The higher address is the temporary master, slot 0.
    expect(namesSeenBy(high)).toBe('0:pilot 1:pilot-2');
    expect(low.peer.ownName()).toBe('pilot-2');
    expect(noticesOf(low, 'renamed').map((n) => [n.notice.name, n.notice.wanted, n.notice.holder.slot])).toEqual([['pilot-2', 'pilot', 0]]);
    expect(noticesOf(high, 'renamed')).toEqual([]);
    // It stays that way: nobody renames again.
    net.run(10_000);
    expect(namesSeenBy(low)).toBe('0:pilot 1:pilot-2');
    expect(noticesOf(low, 'renamed')).toHaveLength(1);
  });

  it('names that differ only in case clash too: Pilot, PILOT and pilot become three names', () => {
    const net = new SimNet({ seed: 12 });
    const nodes = start(net, [
      [1, 'Pilot'],
      [2, 'PILOT'],
      [3, 'pilot'],
    ]);
    expect(net.runUntil(() => namesAgree(nodes) && nodes.every(namesUnique), 3000)).toBe(true);
    expect(namesSeenBy(nodes[0] as SimNode)).toBe('0:pilot 1:PILOT-2 2:Pilot-3');
  });

  it('over 300 seeded start-ups with loss, duplication and reordering, four same-named players always end with four different names everyone agrees on', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const net = new SimNet({ seed, latencyMs: [1, 30], loss: 0.05, duplicate: 0.02, reorder: 0.05 });
      const nodes = start(net, [
        [1, 'ace'],
        [2, 'ace'],
        [3, 'ace'],
        [4, 'ace'],
      ]);
      const ok = net.runUntil(() => namesAgree(nodes) && nodes.every(namesUnique) && nodes.every((n) => n.peer.players().length === 4), 8000);
      if (!ok) throw new Error(`seed ${seed}: ${nodes.map((n) => `${n.index}:${n.peer.state}[${namesSeenBy(n)}]`).join(' | ')}`);
      // Exactly one of them kept the plain name.
      expect(nodes.filter((n) => n.peer.ownName() === 'ace')).toHaveLength(1);
    }
  });
});

describe('entering a running game', () => {
  it('a newcomer whose name is taken plays as name-<slot+1>, even in a slot below the player who has it; that player keeps it', () => {
    const net = new SimNet({ seed: 13 });
    const [c, b, a] = start(net, [
      [7, 'alpha'],
      [6, 'bravo'],
      [5, 'pilot'],
    ]) as [SimNode, SimNode, SimNode];
    expect(net.runUntil(() => namesAgree([a, b, c]) && a.peer.players().length === 3, 3000)).toBe(true);
    expect(a.peer.slot()).toBe(2);
    // Slot 1 is freed; the newcomer gets it, below the "pilot" in slot 2.
    b.peer.disconnect(net.now);
    net.run(200);
    const newcomer = net.addNode(9, { name: 'pilot' });
    net.connect(newcomer);
    const game = [a, c, newcomer];
    expect(net.runUntil(() => namesAgree(game) && game.every(namesUnique) && newcomer.peer.players().length === 3, 3000)).toBe(true);
    expect(newcomer.peer.slot()).toBe(1);
    expect(namesSeenBy(a)).toBe('0:alpha 1:pilot-2 2:pilot');
    expect(noticesOf(newcomer, 'renamed').map((n) => [n.notice.name, n.notice.holder.slot])).toEqual([['pilot-2', 2]]);
    net.run(10_000);
    expect(noticesOf(a, 'renamed')).toEqual([]);
    expect(namesSeenBy(c)).toBe('0:alpha 1:pilot-2 2:pilot');
  });

  it('the name taken instead holds for that game only: after disconnecting, the player asks for the wanted name again', () => {
    const net = new SimNet({ seed: 14 });
    const [low, high] = start(net, [
      [1, 'pilot'],
      [2, 'pilot'],
    ]) as [SimNode, SimNode];
    expect(net.runUntil(() => low.peer.ownName() === 'pilot-2', 3000)).toBe(true);
    low.peer.disconnect(net.now);
    expect(low.peer.ownName()).toBe('pilot');
    high.peer.disconnect(net.now);
    net.run(4000);
    // Alone now, it starts its own game under the wanted name.
    net.connect(low);
    expect(net.runUntil(() => low.peer.state === 'connected', 2000)).toBe(true);
    expect(namesSeenBy(low)).toBe('0:pilot');
  });
});

describe('the name command while connected', () => {
  it('asking for a name another player has gives name-<slot+1> at once and tells the player; a free name is taken as asked', () => {
    const net = new SimNet({ seed: 15 });
    const [low, high] = start(net, [
      [1, 'red'],
      [2, 'blue'],
    ]) as [SimNode, SimNode];
    expect(net.runUntil(() => namesAgree([low, high]) && low.peer.players().length === 2, 3000)).toBe(true);
    low.peer.setName('BLUE', net.now);
    expect(low.peer.ownName()).toBe('BLUE-2');
    expect(noticesOf(low, 'renamed').map((n) => [n.notice.name, n.notice.wanted, n.notice.holder.name])).toEqual([['BLUE-2', 'BLUE', 'blue']]);
    expect(net.runUntil(() => namesSeenBy(high) === '0:blue 1:BLUE-2', 1000)).toBe(true);
    low.peer.setName('green', net.now);
    expect(net.runUntil(() => namesSeenBy(high) === '0:blue 1:green', 1000)).toBe(true);
    net.run(10_000);
    expect(noticesOf(high, 'renamed')).toEqual([]);
    expect(noticesOf(low, 'renamed')).toHaveLength(1);
  });

  it('two players taking the same new name at the same moment: the lower slot keeps it, the other gets name-<slot+1>', () => {
    const net = new SimNet({ seed: 16 });
    const nodes = start(net, [
      [1, 'one'],
      [2, 'two'],
      [3, 'three'],
    ]);
    expect(net.runUntil(() => namesAgree(nodes) && nodes.every((n) => n.peer.players().length === 3), 3000)).toBe(true);
    const bySlot = [...nodes].sort((x, y) => (x.peer.slot() ?? 0) - (y.peer.slot() ?? 0));
    const [, s1, s2] = bySlot as [SimNode, SimNode, SimNode];
    s1.peer.setName('ace', net.now);
    s2.peer.setName('ace', net.now);
    expect(net.runUntil(() => namesAgree(nodes) && nodes.every(namesUnique) && s1.peer.ownName() === 'ace', 3000)).toBe(true);
    expect(s2.peer.ownName()).toBe('ace-3');
    net.run(10_000);
    expect(namesSeenBy(s1)).toMatch(/^0:\w+ 1:ace 2:ace-3$/);
  });
});

describe('suffixedName', () => {
  it('keeps the result a valid 16-character name and skips names already taken', () => {
    expect(suffixedName('pilot', 1, () => false)).toBe('pilot-2');
    expect(suffixedName('a name of sixtee', 11, () => false)).toBe('a name of six-12');
    // Never a space before the dash.
    expect(suffixedName('abcdefghijklm op', 3, () => false)).toBe('abcdefghijklm-4');
    expect(suffixedName('pilot', 1, (n) => n === 'pilot-2')).toBe('pilot-18');
  });
});
