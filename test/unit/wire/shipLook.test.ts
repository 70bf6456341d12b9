/**
 * The ship look a pilot chooses: its two words, what the cvars say, how a
 * slot resolves the parts left to it, and the join protocol's ship lines
 * (what a server reads, what a client reads, what neither accepts).
 */
import { describe, expect, it } from 'vitest';
import { AUTO_LOOK, formatLook, isShipLook, lookFromCvars, LOOK_AUTO, parseLook, resolvedLook, SHIP_COLOURS, SHIP_DESIGNS } from '../../../src/shared/wire/shipLook';
import { formatMyShip, formatShipUpdate, parseMyShip, parseShipUpdate } from '../../../src/shared/servers/shipLines';
import { identityEvents, lookOf } from '../../../src/shared/p2p/packets';
import { controlPacket, nameEvent } from '../../../src/shared/p2p/packets';
import { PacketType } from '../../../src/shared/wire/types';

describe('ship looks', () => {
  it('every look reads back from its two words, and nothing else reads as a look', () => {
    for (const design of [...SHIP_DESIGNS.keys(), LOOK_AUTO]) {
      for (const colour of [...SHIP_COLOURS.keys(), LOOK_AUTO]) expect(parseLook(formatLook({ design, colour }))).toEqual({ design, colour });
    }
    for (const bad of ['wasp', 'wasp  orange', 'Wasp orange', 'wasp orange ', 'galleon red', 'wasp mauve', '']) expect(parseLook(bad)).toBeNull();
    expect(isShipLook({ design: 3, colour: 0 })).toBe(false);
    expect(isShipLook({ design: 0, colour: 8 })).toBe(false);
  });

  it('a part left to the slot follows the slot, a chosen part does not', () => {
    expect(resolvedLook(4)).toEqual({ design: 'wasp', colour: 4 });
    expect(resolvedLook(4, { design: 2, colour: LOOK_AUTO })).toEqual({ design: 'manta', colour: 4 });
    expect(resolvedLook(4, { design: LOOK_AUTO, colour: 7 })).toEqual({ design: 'wasp', colour: 7 });
  });

  it('the cvars choose the look; missing or unknown words are auto', () => {
    expect(lookFromCvars({})).toEqual(AUTO_LOOK);
    expect(lookFromCvars({ ship_design: 'manta', ship_colour: 'pink' })).toEqual({ design: 2, colour: 6 });
    expect(lookFromCvars({ ship_design: 'galleon', ship_colour: 'auto' })).toEqual(AUTO_LOOK);
  });

  it('the join protocol lines: `my ship:` and `ship ip:` read back exactly; malformed ones are not lines of theirs', () => {
    expect(formatMyShip({ design: 1, colour: 1 })).toBe('my ship: wasp orange');
    expect(parseMyShip('my ship: wasp orange')).toEqual({ design: 1, colour: 1 });
    expect(parseMyShip('my ship: auto auto')).toEqual(AUTO_LOOK);
    for (const bad of ['my ship: wasp', 'my ship:wasp orange', 'my ship: wasp orange extra', 'my new name: wasp orange']) expect(parseMyShip(bad)).toBeNull();
    const update = { endpoint: { address: '192.0.2.7', port: 6527 }, look: { design: 0, colour: LOOK_AUTO } };
    expect(formatShipUpdate(update)).toBe('ship ip: 192.0.2.7:6527 ship: dart auto');
    expect(parseShipUpdate('ship ip: 192.0.2.7:6527 ship: dart auto')).toEqual(update);
    expect(parseShipUpdate('ship ip: 192.0.2.7:6526 ship: dart auto')).toBeNull();
    expect(parseShipUpdate('ship ip: 192.0.2.7 ship: dart')).toBeNull();
    expect(() => formatMyShip({ design: 9, colour: 0 })).toThrow(RangeError);
  });

  it('p2p control packets: a chosen look rides beside the name; a name without one means auto; no name says nothing', () => {
    expect(identityEvents('ace', AUTO_LOOK)).toEqual([nameEvent('ace')]);
    const events = identityEvents('ace', { design: 2, colour: 3 });
    expect(events).toEqual([nameEvent('ace'), { type: 'playerLook', design: 2, colour: 3 }]);
    expect(lookOf(controlPacket(PacketType.NodeAlive, 1, 1, false, events))).toEqual({ design: 2, colour: 3 });
    expect(lookOf(controlPacket(PacketType.NodeAlive, 1, 1, false, [nameEvent('ace')]))).toEqual(AUTO_LOOK);
    expect(lookOf(controlPacket(PacketType.Disconnect, 1, 1, false, []))).toBeNull();
  });
});
