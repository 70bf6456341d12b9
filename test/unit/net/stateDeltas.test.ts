/**
 * What one connection remembers for partial ship states (net/stateDeltas.ts):
 * a state goes partial only against one of ours the node acknowledged, not
 * too far back; the states we took are the bases the node's partial states
 * name; a node that left is forgotten both ways.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BASE_AGE, RECEIVED_KEPT, StateDeltas } from '../../../src/shared/net/stateDeltas';
import { quantiseState } from '../../../src/shared/wire/shipStateCodec';
import { flyingShip } from '../../support/sessionRig';

const q = (t: number) => quantiseState(flyingShip(0, t));

describe('partial states on one connection', () => {
  it('sends full until the node acknowledges a state, then builds on the newest acknowledged, at most MAX_BASE_AGE ids back', () => {
    const d = new StateDeltas();
    for (let id = 100; id < 105; id++) {
      expect(d.baseFor(id)).toBeUndefined();
      d.didSend(id, q(id), false);
    }
    d.onStateAck(102);
    expect(d.baseFor(105)).toEqual({ distance: 3, sent: q(102) });
    // An older acknowledgement (overtaken on the way) does not move the base back; one of an id never sent is ignored.
    d.onStateAck(101);
    d.onStateAck(9999);
    expect(d.baseFor(105)?.distance).toBe(3);
    expect(d.baseFor(102 + MAX_BASE_AGE)?.distance).toBe(MAX_BASE_AGE);
    expect(d.baseFor(102 + MAX_BASE_AGE + 1)).toBeUndefined();
  });

  it('matches an acknowledgement by the low 16 bits of the id, across the u32 wrap', () => {
    const d = new StateDeltas();
    d.didSend(0xffff_fffe, q(1), false);
    d.didSend(0xffff_ffff, q(2), false);
    d.onStateAck(0xffff);
    expect(d.baseFor(1)).toEqual({ distance: 2, sent: q(2) });
  });

  it('keeps the states taken from the node by id as bases (the last RECEIVED_KEPT), and acknowledges the newest', () => {
    const d = new StateDeltas();
    expect(d.stateAck()).toBeUndefined();
    for (let id = 0x1_0000; id < 0x1_0000 + RECEIVED_KEPT + 5; id++) d.took(id, flyingShip(0, id));
    d.took(0x1_0001, flyingShip(0, 1)); // a late one does not become the newest
    expect(d.stateAck()).toBe((0x1_0000 + RECEIVED_KEPT + 4) & 0xffff);
    expect(d.at(0x1_0000 + RECEIVED_KEPT + 4)).toEqual(flyingShip(0, 0x1_0000 + RECEIVED_KEPT + 4));
    expect(d.at(0x1_0002)).toBeUndefined();
  });

  it('forgets both ways when the node leaves: the next state is full, no base is held, nothing is acknowledged', () => {
    const d = new StateDeltas();
    d.didSend(7, q(7), false);
    d.onStateAck(7);
    d.took(50, flyingShip(0, 50));
    d.forget();
    expect(d.baseFor(8)).toBeUndefined();
    expect(d.at(50)).toBeUndefined();
    expect(d.stateAck()).toBeUndefined();
  });
});
