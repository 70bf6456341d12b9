import { MAX_LEAD, SEED_LEAD } from '../../shared/lockstep/config';
import type { Cvar } from '../../shared/console/cvar';
import { MAX_SEND_HZ, MIN_SEND_HZ } from '../../shared/net/sendPolicy';
import type { HostService } from './hostService';
import { MAX_FAKE_JITTER_MS, MAX_FAKE_LAG_MS, type LinkConditions } from '../../shared/net/linkConditions';

export interface NetCvars {
  sendfreq: Cvar<'int'>;
  autojoin: Cvar<'bool'>;
  smooth: Cvar<'int'>;
  maxplayers: Cvar<'int'>;
  fakelag: Cvar<'int'>;
  fakejitter: Cvar<'int'>;
  fakeloss: Cvar<'float'>;
  fakedup: Cvar<'float'>;
  fakereorder: Cvar<'float'>;
  netgraph: Cvar<'bool'>;
  verbose: Cvar<'bool'>;
  inputLead: Cvar<'int'>;
}

/**
 * The network cvars every host has (archived, so they are remembered):
 * `sendfreq` packets/s, `cl_autojoin` join once connected, `net_smooth`
 * ms to converge a remote ship to a correction (read by the renderer),
 * `net_maxplayers` slots of a peer-to-peer game (used at the next connect),
 * `input_lead` frames a lockstep pilot's input is sent ahead (0: from the
 * round trip).
 */
export function registerNetCvars(host: HostService): NetCvars {
  return {
    sendfreq: host.addCvar({
      name: 'sendfreq',
      type: 'int',
      default: 20,
      min: MIN_SEND_HZ,
      max: MAX_SEND_HZ,
      help: 'game packets sent per second while joined',
      flags: { archive: true },
    }),
    autojoin: host.addCvar({ name: 'cl_autojoin', type: 'bool', default: true, help: 'join the game as soon as connected', flags: { archive: true } }),
    smooth: host.addCvar({
      name: 'net_smooth',
      type: 'int',
      default: 200,
      min: 0,
      max: 1000,
      help: 'ms over which a remote ship glides onto a corrected position (0 = snap)',
      flags: { archive: true },
    }),
    maxplayers: host.addCvar({
      name: 'net_maxplayers',
      type: 'int',
      default: 4,
      min: 2,
      max: 8,
      help: 'player slots of a peer-to-peer game you start (from the next connect; at most 8: every player sends to every other; a gameserver seats up to 255)',
      flags: { archive: true },
    }),
    inputLead: host.addCvar({
      name: 'input_lead',
      type: 'int',
      default: 0,
      min: 0,
      max: MAX_LEAD,
      help: `lockstep: frames (25 ms each) your input is sent ahead of the frame it applies to; 0 = from the round trip (at least ${SEED_LEAD}, the seed's)`,
      flags: { archive: true },
    }),
    ...registerLinkCvars(host),
    verbose: host.addCvar({
      name: 'net_verbose',
      type: 'bool',
      default: false,
      help: "print the connection's internals in the console (the clock's offset and round trip as it synchronises)",
      flags: { archive: true },
    }),
    netgraph: host.addCvar({
      name: 'netgraph',
      type: 'bool',
      default: false,
      help: 'show the net graph: ping, jitter, loss and traffic over the last 10 s (bottom right)',
      flags: { archive: true },
    }),
  };
}

/**
 * The link conditioner's cvars. Not archived on purpose: fake lag is a
 * testing aid, and a player must never start a session on a degraded link
 * because of something typed last week. They apply to both directions, so
 * `net_fakelag 100` adds 200 ms to a round trip.
 */
function registerLinkCvars(host: HostService): Pick<NetCvars, 'fakelag' | 'fakejitter' | 'fakeloss' | 'fakedup' | 'fakereorder'> {
  const pct = (name: string, help: string) => host.addCvar({ name, type: 'float', default: 0, min: 0, max: 100, help });
  return {
    fakelag: host.addCvar({
      name: 'net_fakelag',
      type: 'int',
      default: 0,
      min: 0,
      max: MAX_FAKE_LAG_MS,
      help: 'testing: ms of extra delay on every datagram sent and received (a round trip grows by twice this)',
    }),
    fakejitter: host.addCvar({
      name: 'net_fakejitter',
      type: 'int',
      default: 0,
      min: 0,
      max: MAX_FAKE_JITTER_MS,
      help: 'testing: ms by which each datagram\'s fake delay varies, up or down (uniformly)',
    }),
    fakeloss: pct('net_fakeloss', 'testing: % of datagrams dropped, each direction'),
    fakedup: pct('net_fakedup', 'testing: % of datagrams delivered twice, each direction'),
    fakereorder: pct('net_fakereorder', 'testing: % of datagrams held back so later ones overtake them, each direction'),
  };
}

/** The conditions the link cvars ask for, as one object kept up to date (read per datagram, so no allocation there). */
export function linkConditionsOf(cvars: Pick<NetCvars, 'fakelag' | 'fakejitter' | 'fakeloss' | 'fakedup' | 'fakereorder'>): LinkConditions {
  return {
    lagMs: cvars.fakelag.value,
    jitterMs: cvars.fakejitter.value,
    lossPct: cvars.fakeloss.value,
    dupPct: cvars.fakedup.value,
    reorderPct: cvars.fakereorder.value,
  };
}
