/**
 * A session's connection layer (src/shared/session/connections.ts): the
 * one place a client writes a datagram's number (per node, from the
 * wall-clock second) and reads it (once, as it arrives). What it drops, what
 * it counts, what goes up to the membership, the restarted-node rule and how
 * long a node's received numbers are kept.
 */
import { describe, expect, it } from 'vitest';
import { REPLAY_WINDOW, sequenceStart } from '../../../src/shared/net/replayWindow';
import { FORGET_RECEIVED_MS, SessionConnections } from '../../../src/shared/session/connections';
import { PacketType } from '../../../src/shared/wire/types';

const state = { header: { type: PacketType.GameState, senderSlot: 1, joined: true }, events: [] };
const IN_GAME = true;

describe('outgoing: one run of numbers per node', () => {
  it('numbers each node on its own run from the wall-clock second it was opened in; the LAN broadcast has a run of its own', () => {
    let second = 40;
    const c = new SessionConnections(() => second, true);
    expect([c.number('a', state), c.number('a', state)].map((p) => p.header.messageId)).toEqual([sequenceStart(40), sequenceStart(40) + 1]);
    second = 41;
    expect(c.number('b', state).header.messageId).toBe(sequenceStart(41));
    expect(c.numberBroadcast(state).header.messageId).toBe(sequenceStart(41));
    expect(c.number('a', state).header.messageId).toBe(sequenceStart(40) + 2);
    // The packet handed in is not changed: only what leaves carries the number.
    expect('messageId' in state.header).toBe(false);
  });

  it('forgetting what was received (the protocol stopped) leaves the outgoing numbers going on', () => {
    const c = new SessionConnections(() => 7, true);
    const before = c.number('a', state).header.messageId;
    c.admit('a', PacketType.GameState, 900, 0, IN_GAME);
    c.forgetReceived();
    expect(c.number('a', state).header.messageId).toBe(before + 1);
    expect(c.admit('a', PacketType.GameState, 5, 10, IN_GAME)).toBe('newest');
  });
});

describe('incoming: each number read once', () => {
  it('in a game, a session datagram of a session node taken before or older than the window is refused and counted', () => {
    const c = new SessionConnections(() => 0, true);
    c.retain(new Set(['a']), 0);
    expect(c.admit('a', PacketType.GameState, 1000, 0, IN_GAME)).toBe('newest');
    expect(c.admit('a', PacketType.NodeAlive, 998, 0, IN_GAME)).toBe('late');
    expect(c.admit('a', PacketType.Reliable, 998, 0, IN_GAME)).toBeNull();
    expect(c.admit('a', PacketType.Ping, 1000 - REPLAY_WINDOW, 0, IN_GAME)).toBeNull();
    expect(c.counts).toEqual({ replayed: 1, tooOld: 1 });
  });

  it('a duplicate of anything is dropped once, uncounted outside the session; an old number outside it goes up as too old', () => {
    const c = new SessionConnections(() => 0, true);
    expect(c.admit('stranger', PacketType.SlotRequest, 50, 0, IN_GAME)).toBe('newest');
    expect(c.admit('stranger', PacketType.SlotRequest, 50, 1, IN_GAME)).toBeNull();
    expect(c.admit('stranger', PacketType.GameState, 50 - REPLAY_WINDOW, 2, IN_GAME)).toBe('too-old');
    // Not in a game: nobody is a session node, so nothing is counted.
    c.retain(new Set(['a']), 3);
    expect(c.admit('a', PacketType.GameState, 10, 3, IN_GAME)).toBe('newest');
    expect(c.admit('a', PacketType.GameState, 10, 3, false)).toBeNull();
    expect(c.counts).toEqual({ replayed: 0, tooOld: 0 });
  });

  it('start-up packets of a session node are never refused as too old: a ConnectRequest below the newest restarts the node\'s numbers', () => {
    const c = new SessionConnections(() => 0, true);
    c.retain(new Set(['a']), 0);
    expect(c.admit('a', PacketType.NodeAlive, 2_000_000, 0, IN_GAME)).toBe('newest');
    // The node's program restarted with its clock set back: its new run is far below the old one.
    expect(c.admit('a', PacketType.NodeAlive, 5, 10, IN_GAME)).toBeNull();
    expect(c.admit('a', PacketType.ConnectRequest, 5, 20, IN_GAME)).toBe('too-old');
    expect(c.admit('a', PacketType.ConnectRequest, 5, 21, IN_GAME)).toBeNull();
    expect(c.admit('a', PacketType.NodeAlive, 6, 30, IN_GAME)).toBe('newest');
    expect(c.admit('a', PacketType.GameState, 7, 40, IN_GAME)).toBe('newest');
    // Counted: the old-run NodeAlive; the repeated ConnectRequest is a duplicate of a start-up packet, dropped uncounted.
    expect(c.counts).toEqual({ replayed: 0, tooOld: 1 });
  });
});

describe('how long received numbers are kept', () => {
  it('a node that left keeps its numbers while its last datagrams may be on the way, then is heard afresh; a member keeps them however long it is silent', () => {
    const c = new SessionConnections(() => 0, true);
    c.retain(new Set(['gone', 'quiet']), 0);
    c.admit('gone', PacketType.GameState, 100, 0, IN_GAME);
    c.admit('gone', PacketType.Disconnect, 102, 0, IN_GAME);
    c.admit('quiet', PacketType.GameState, 500, 0, IN_GAME);
    c.retain(new Set(['quiet']), 10);
    // A state it sent before its Disconnect is late, not a new one (it cannot bring the node back).
    expect(c.admit('gone', PacketType.GameState, 101, 20, IN_GAME)).toBe('late');
    c.retain(new Set(['quiet']), FORGET_RECEIVED_MS - 1);
    expect(c.admit('gone', PacketType.GameState, 99, FORGET_RECEIVED_MS - 1, IN_GAME)).toBe('late');
    c.retain(new Set(['quiet']), FORGET_RECEIVED_MS);
    expect(c.admit('gone', PacketType.GameState, 3, FORGET_RECEIVED_MS, IN_GAME)).toBe('newest');
    c.retain(new Set(['quiet']), 60_000);
    expect(c.admit('quiet', PacketType.GameState, 500, 60_000, IN_GAME)).toBeNull();
  });

  it('without proof of address, a stranger we never sent to has no connection (a flood of forged sources opens none); once we sent to it, its numbers are admitted', () => {
    const c = new SessionConnections(() => 0, false);
    expect(c.admit('stranger', PacketType.NodeAlive, 9, 0, IN_GAME)).toBe('newest');
    expect(c.admit('stranger', PacketType.NodeAlive, 9, 0, IN_GAME)).toBe('newest');
    c.number('stranger', state);
    expect(c.admit('stranger', PacketType.NodeAlive, 9, 0, IN_GAME)).toBe('newest');
    expect(c.admit('stranger', PacketType.NodeAlive, 9, 0, IN_GAME)).toBeNull();
    c.retain(new Set(['member']), 0);
    expect(c.admit('member', PacketType.NodeAlive, 1, 0, IN_GAME)).toBe('newest');
    expect(c.admit('member', PacketType.NodeAlive, 1, 0, IN_GAME)).toBeNull();
  });
});
