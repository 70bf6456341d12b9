import type { Cvar } from '../../shared/console/cvar';
import { MAX_SEND_HZ, MIN_SEND_HZ } from '../../shared/net/sendPolicy';
import type { HostService } from './hostService';

export interface NetCvars {
  sendfreq: Cvar<'int'>;
  autojoin: Cvar<'bool'>;
  smooth: Cvar<'int'>;
  maxplayers: Cvar<'int'>;
}

/**
 * The network cvars every host has (archived, so they are remembered):
 * `sendfreq` packets/s, `cl_autojoin` join once connected, `net_smooth`
 * ms to converge a remote ship to a correction (read by the renderer),
 * `net_maxplayers` slots of a peer-to-peer game (used at the next connect).
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
      help: 'player slots of a peer-to-peer game you start (from the next connect)',
      flags: { archive: true },
    }),
  };
}
