import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHANNELS,
  channelOf,
  EVENT_CHANNELS,
  inChannel,
  isLockstepMessage,
  isMembershipMessage,
  isNetgameClientMessage,
  isNetgameMessage,
  isNetgameServerMessage,
  isRelayMessage,
  isWorldMessage,
  NETGAME_SENDERS,
  type Channel,
} from '../../../src/shared/wire/channels';
import { EVENT_CODES, RELAYED_EVENT_CODE } from '../../../src/shared/wire';
import { RELIABLE_EVENT_TYPES, type RemoteEvent } from '../../../src/shared/wire/types';
import { arbRemoteEvent } from '../../support/wireArbitraries';

const GUARDS: Record<Channel, (event: RemoteEvent) => boolean> = {
  world: isWorldMessage,
  membership: isMembershipMessage,
  lockstep: isLockstepMessage,
  netgame: isNetgameMessage,
  relay: isRelayMessage,
};

/** Every event type the codec knows, with its wire code: the table's events and the relay's envelope (acknowledgements and reliable messages are the header's link section since wire v11, no events). */
const CODES: Record<string, number> = { ...EVENT_CODES, relayed: RELAYED_EVENT_CODE };

describe('event channels', () => {
  it('every event type the codec has a code for has exactly one channel, and the table names no other type', () => {
    expect(Object.keys(EVENT_CHANNELS).sort()).toEqual(Object.keys(CODES).sort());
    for (const channel of Object.values(EVENT_CHANNELS)) expect(CHANNELS).toContain(channel);
  });

  it('every channel has at least one event type', () => {
    for (const channel of CHANNELS) expect(Object.values(EVENT_CHANNELS)).toContain(channel);
  });

  it('the guards agree with the table: exactly one guard takes each event, the one of its channel', () => {
    fc.assert(
      fc.property(arbRemoteEvent, (event) => {
        const channel = channelOf(event);
        expect(channel).toBe(EVENT_CHANNELS[event.type]);
        const taking = CHANNELS.filter((c) => GUARDS[c](event));
        expect(taking).toEqual([channel]);
        for (const c of CHANNELS) expect(inChannel(c, event)).toBe(c === channel);
      }),
      { numRuns: 500 },
    );
  });

  it('game code\'s reliable messages are world messages', () => {
    for (const type of RELIABLE_EVENT_TYPES) expect(EVENT_CHANNELS[type]).toBe('world');
  });

  it('a netgame message is sent by the server or by a client, never both', () => {
    const netgame = Object.entries(EVENT_CHANNELS).filter(([, c]) => c === 'netgame').map(([t]) => t);
    expect(Object.keys(NETGAME_SENDERS).sort()).toEqual(netgame.sort());
    fc.assert(
      fc.property(arbRemoteEvent, (event) => {
        const server = isNetgameServerMessage(event);
        const client = isNetgameClientMessage(event);
        expect(server && client).toBe(false);
        expect(server || client).toBe(isNetgameMessage(event));
      }),
      { numRuns: 300 },
    );
  });
});
