/**
 * Relayed partial states (wire v14) over real sockets: a gameserver builds
 * each player's state to a client on the newest state of that player in a
 * Relay the client acknowledged, so a cruising ship reaches it as its
 * position's change alone; a client that acknowledges nothing gets every
 * state full; a client that acknowledged a Relay it lost drops the partial
 * states built on it as `unknown-base` until a full one repairs it.
 * Clients: test/support/gameClient.ts, whose `relayAcks` keeps its bases
 * with the game client's own net/relayedStates.ts.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BASE_AGE } from '../../src/shared/net/stateDeltas';
import { PORTION_BASE, PORTION_POSITION } from '../../src/shared/wire/shipStateCodec';
import { FLAG_STATE, fixedHeaderSize, linkSize, RELAYED_EVENT_CODE } from '../../src/shared/wire/codec';
import type { GameClient } from '../support/gameClient';
import { useGameservers } from '../support/gameserverFixture';
import type { Gameserver } from '../../src/node/servers/game/gameserverOptions';

const { server, join } = useGameservers();

/** The states of `slot` a client decoded, by the sender's message id. */
const statesOf = (c: GameClient, slot: number) => new Map(c.relayed().flatMap((r) => (r.slot === slot && r.packet.header.state ? [[r.packet.header.messageId, r.packet.header.state] as const] : [])));
const seat = (s: Gameserver, slot: number) => s.stats().clients.find((c) => c.slot === slot);

/** Joins `name` and says hello over UDP, so the server knows where to send. */
async function player(s: Gameserver, name: string, relayAcks: boolean): Promise<GameClient> {
  const c = await join(s, name, { relayAcks });
  c.hello();
  await c.until(() => seat(s, c.slot)?.udp != null, 10_000, `${name} bound`);
  return c;
}

describe('relayed partial states', () => {
  it('a client that acknowledges Relays gets a cruising ship as its position change (23-byte inner datagrams, not 45), decoded exactly as the full states another client gets', async () => {
    const s = await server();
    const sender = await player(s, 'cruiser', false);
    const acking = await player(s, 'acking', true);
    const plain = await player(s, 'plain', false);
    // The ship's states in the order they arrived at the acknowledging client, by the sender's message id.
    const relayedIds = (c: GameClient) => c.relayed().flatMap((r) => (r.slot === sender.slot && r.packet.header.state ? [r.packet.header.messageId] : []));
    const rounds = 40;
    const ids: number[] = [];
    for (let i = 0; i < rounds; i++) {
      // One state of the cruising ship, 3 units on each time; both others receive it before anything else happens.
      ids.push(sender.sendState({ x: 0, y: 0, z: -3 * i }));
      const id = ids[i] as number;
      await acking.until(() => statesOf(acking, sender.slot).has(id) && statesOf(plain, sender.slot).has(id), 10_000, `state ${i} at both`);
      // The acknowledging client answers with a state of its own, whose link section acknowledges the Relays it took; the server takes it before the next.
      const before = seat(s, acking.slot)?.relaysAcknowledged ?? 0;
      acking.sendState({ x: 500, y: 0, z: 0 });
      await acking.until(() => (seat(s, acking.slot)?.relaysAcknowledged ?? 0) > before, 10_000, `acknowledgement ${i} taken`);
    }
    const a = statesOf(acking, sender.slot);
    const p = statesOf(plain, sender.slot);
    // Each state decoded from its change is exactly the full state the other client decoded.
    for (const id of ids) expect(a.get(id)).toEqual(p.get(id));
    expect(relayedIds(acking)).toEqual(ids);
    const acked = seat(s, acking.slot);
    const plainSeat = seat(s, plain.slot);
    console.log(`relayed partial states: to the acknowledging client ${acked?.statesPartial} of ${acked?.statesSent} states partial (${acked?.relaysAcknowledged} Relays acknowledged), ${acked?.bytesSent} B; to the other ${plainSeat?.statesPartial} of ${plainSeat?.statesSent}, ${plainSeat?.bytesSent} B`);
    expect(acked?.statesPartial).toBe(rounds - 1);
    expect(plainSeat?.statesPartial).toBe(0);
    expect(acking.drops).toEqual({});
    // The bytes on the wire: the first state full, every later one partial against the one before, carrying its position's change only.
    const wire = rawInner(acking, sender.slot);
    expect(wire.map((w) => w.portions)).toEqual([0x1f, ...new Array<number>(rounds - 1).fill(PORTION_BASE | PORTION_POSITION)]);
    expect(wire.map((w) => w.length)).toEqual([45, ...new Array<number>(rounds - 1).fill(23)]);
    expect(rawInner(plain, sender.slot).map((w) => w.length)).toEqual(new Array<number>(rounds).fill(45));
  });

  it(`a client that acknowledged a Relay it lost drops the ${MAX_BASE_AGE} partial states built on it as unknown-base, and the next full state repairs it`, async () => {
    const s = await server();
    const sender = await player(s, 'cruiser', false);
    const liar = await player(s, 'liar', true);
    let sent = 0;
    const round = async (i: number) => {
      const before = seat(s, liar.slot)?.statesSent ?? 0;
      sender.sendState({ x: 0, y: 0, z: -3 * i });
      await liar.until(() => (seat(s, liar.slot)?.statesSent ?? 0) > before, 10_000, `state ${i} relayed`);
      // Wait until the liar read the Relay (taken, lost or dropped), then acknowledge what it holds.
      const read = () => liar.relays().length + liar.relaysLost + (liar.drops['unknown-base'] ?? 0);
      await liar.until(() => read() > sent, 10_000, `Relay ${i} read`);
      sent = read();
      const acks = seat(s, liar.slot)?.relaysAcknowledged ?? 0;
      liar.sendState({ x: 500, y: 0, z: 0 });
      await liar.until(() => (seat(s, liar.slot)?.relaysAcknowledged ?? 0) >= acks, 10_000, `acknowledgement ${i}`);
    };
    let i = 0;
    for (; i < 5; i++) await round(i);
    const takenBefore = statesOf(liar, sender.slot).size;
    liar.loseRelays = 1;
    for (let k = 0; k < MAX_BASE_AGE + 6; k++, i++) await round(i);
    console.log(`lost Relay: drops ${JSON.stringify(liar.drops)}, states taken ${statesOf(liar, sender.slot).size} of ${i}`);
    expect(liar.drops).toEqual({ 'unknown-base': MAX_BASE_AGE });
    // Taken: the 5 before, none of the lost one and the 16 built on it, then every one from the full state on.
    expect(statesOf(liar, sender.slot).size).toBe(takenBefore + 5);
    const wire = rawInner(liar, sender.slot);
    expect(wire.at(-5)?.portions).toBe(0x1f);
    expect(wire.slice(-4).every((w) => w.portions === (PORTION_BASE | PORTION_POSITION))).toBe(true);
  });
});

/** Where a relayed GameState's portions byte sits in its inner datagram: after the 10-byte base and the 4-byte time. */
const PORTIONS_AT = 14;

/** The portions byte and inner datagram length of each state of `slot` in the Relays `c` took, read from their bytes. */
function rawInner(c: GameClient, slot: number): { portions: number; length: number }[] {
  const out: { portions: number; length: number }[] = [];
  for (const r of c.relays()) {
    const b = r.raw;
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    // The events follow the header and the Relay's link section, if it has one (the server's own reliable messages).
    const events = fixedHeaderSize(b) + (r.packet.link ? linkSize(r.packet.link) : 0);
    for (let at = events; at + 3 <= b.length && b[at] !== 0; at += 3 + v.getUint16(at + 1)) {
      if (b[at] !== RELAYED_EVENT_CODE || b[at + 3] !== slot) continue;
      const inner = at + 6;
      if (((b[inner + 5] as number) & FLAG_STATE) !== 0) out.push({ portions: b[inner + PORTIONS_AT] as number, length: v.getUint16(at + 4) });
    }
  }
  return out;
}
