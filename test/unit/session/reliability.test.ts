/**
 * Reliable messages through whole sessions on a memory LAN whose links run
 * through the game's own link conditioner (20 % loss, 10 % duplication, 10 %
 * reordering, 20 ± 10 ms lag each way), on a virtual clock: chat arrives
 * exactly once in a p2p and in a server-run (slotserver) game, and a node
 * that stops acknowledging is declared gone after the documented resends.
 */
import { describe, expect, it } from 'vitest';
import { ConditionedPacketApi } from '../../../src/shared/net/conditionedPacketApi';
import { NO_CONDITIONS } from '../../../src/shared/net/linkConditions';
import type { PacketApi } from '../../../src/shared/net/packetApi';
import { giveUpAfterMs } from '../../../src/shared/net/reliable';
import type { Membership } from '../../../src/shared/session/membership';
import { MemoryNet } from '../../support/memoryNet';
import { flyingShip, managedNode, p2pNode, runUntil, seatAll, type TestNode } from '../../support/sessionRig';
import { VirtualClock } from '../../support/virtualClock';

const BAD_LINK = { ...NO_CONDITIONS, lagMs: 20, jitterMs: 10, lossPct: 20, dupPct: 10, reorderPct: 10 };

function badLink(clock: VirtualClock, seed: number) {
  return (api: PacketApi) => new ConditionedPacketApi(api, { conditions: () => BAD_LINK, seed, timers: clock });
}

const allJoined = (nodes: TestNode<Membership>[]) => nodes.every((n) => n.session.member.players().length === nodes.length && n.session.member.players().every((p) => p.joined));

/** Alpha says `count` lines (then one more once all are acknowledged); bravo must hear each exactly once. */
function chatExactlyOnce(clock: VirtualClock, a: TestNode<Membership>, b: TestNode<Membership>, count = 40): void {
  for (let i = 0; i < count; i++) expect(a.session.say(`line ${i}`)).toBeNull();
  const heard = () => b.game.of('chat').map((c) => c.text);
  runUntil(clock, `all ${count} lines at bravo`, () => new Set(heard()).size === count, 30_000);
  runUntil(clock, 'every line acknowledged', () => a.session.links.pending === 0, 30_000);
  // Copies still in flight would arrive before a line sent after them is heard and acknowledged.
  a.session.say('last line');
  runUntil(clock, 'the last line at bravo and acknowledged', () => heard().includes('last line') && a.session.links.pending === 0, 30_000);
  expect(heard()).toHaveLength(count + 1);
  expect(new Set(heard())).toEqual(new Set([...Array.from({ length: count }, (_, i) => `line ${i}`), 'last line']));
  // Each was also a console notice at bravo, once.
  expect(b.notices.filter((n) => n.kind === 'chat')).toHaveLength(count + 1);
  expect(a.session.links.counters()['resent'] ?? 0).toBeGreaterThan(0);
}

function flying(clock: VirtualClock, nodes: TestNode<Membership>[]): void {
  clock.setInterval(() => nodes.forEach((n, i) => (n.game.ship = flyingShip(30 * i, clock.now()))), 25);
}

describe('reliable messages in a session', () => {
  it('p2p: chat arrives exactly once over a bad link, after the newcomer synchronised its clock', () => {
    const clock = new VirtualClock();
    const net = new MemoryNet(clock, 1);
    const a = p2pNode(net, clock, 'alpha', { wrap: badLink(clock, 1) });
    const b = p2pNode(net, clock, 'bravo', { wrap: badLink(clock, 2), clockOffset: 9_000 });
    flying(clock, [a, b]);
    a.session.member.connect(a.game.now());
    runUntil(clock, 'alpha connected', () => a.session.member.state === 'connected');
    b.session.member.connect(b.game.now());
    runUntil(clock, 'both joined', () => allJoined([a, b]), 20_000);
    console.log(JSON.stringify(b.memberNotices.map((n) => n.kind)), JSON.stringify(a.memberNotices.map((n) => n.kind)), b.session.proof?.counts, a.session.proof?.counts);
    expect(b.notices.some((n) => n.kind === 'clock' && (n.report.kind === 'synced' || n.report.kind === 'synced-best-effort') && n.who === 'alpha')).toBe(true);
    chatExactlyOnce(clock, a, b);
    const ages = b.game.of('state').flatMap((s) => (s.ageMs === undefined ? [] : [s.ageMs]));
    expect(ages.length).toBeGreaterThan(0);
    // 20 ± 10 ms of lag each way: the median age sits near it, far from clock trouble.
    const median = [...ages].sort((x, y) => x - y)[Math.floor(ages.length / 2)] as number;
    expect(median).toBeGreaterThanOrEqual(10);
    expect(median).toBeLessThan(100);
  });

  it('slotserver game (table run by the server): chat arrives exactly once peer to peer', () => {
    const clock = new VirtualClock();
    const net = new MemoryNet(clock, 1);
    const a = managedNode(net, clock, 'alpha', { wrap: badLink(clock, 3) });
    const b = managedNode(net, clock, 'bravo', { wrap: badLink(clock, 4), clockOffset: 2_500 });
    flying(clock, [a, b]);
    // What the join server's lines do: each gets a slot and hears of the other.
    seatAll([a, b]);
    for (const n of [a, b]) n.session.requestJoin();
    runUntil(clock, 'both joined', () => allJoined([a, b]), 20_000);
    chatExactlyOnce(clock, a, b);
  });

  it('a node that stops acknowledging is declared gone after the documented resends, once', () => {
    const clock = new VirtualClock();
    const net = new MemoryNet(clock, 2);
    const a = managedNode(net, clock, 'alpha');
    const b = managedNode(net, clock, 'bravo');
    seatAll([a, b]);
    for (const n of [a, b]) n.session.requestJoin();
    runUntil(clock, 'both joined', () => allJoined([a, b]));
    // Bravo goes deaf but keeps sending: still heard, so not dropped for silence (the alive timeout), but never acknowledging.
    b.api.onPacket(() => undefined);
    a.session.say('are you there?');
    const said = clock.now();
    runUntil(clock, 'alpha gives bravo up', () => a.notices.some((n) => n.kind === 'link-failed'), 3 * giveUpAfterMs());
    const after = clock.now() - said;
    expect(after).toBeGreaterThanOrEqual(giveUpAfterMs());
    expect(after).toBeLessThanOrEqual(giveUpAfterMs() + 50);
    const failure = a.notices.find((n) => n.kind === 'link-failed');
    expect(failure?.kind === 'link-failed' && failure.who).toBe('bravo');
    clock.advance(giveUpAfterMs());
    expect(a.notices.filter((n) => n.kind === 'link-failed')).toHaveLength(1);
  });
});
