/**
 * What every Starlane server (slotserver, gameserver, masterserver) looks
 * like to the command line and to tests.
 */
import type { Logger } from '../../log';
import type { Clock } from '../../../shared/time/clock';
import type { ServerLimits } from './connectionLimits';

export interface RunningServer {
  /** `slotserver`, `gameserver` or `masterserver`. */
  readonly kind: string;
  /** Ports actually bound, by role: e.g. `{ tcp: 6582, http: 8082 }` or `{ tcp: 6581, udp: 6522, http: 8081 }`. */
  readonly ports: Record<string, number>;
  /** Graceful shutdown: tell clients (and the masterserver) goodbye, close every socket and timer. */
  close(reason?: string): Promise<void>;
}

/** Options every server takes. */
export interface CommonServerOptions {
  /** Name shown to players and in the masterserver list (≤ 31 printable characters). */
  name: string;
  /** Address to listen on (default 0.0.0.0). */
  host?: string;
  /** HTTP status page port; 0 = any free port; undefined = no status page. */
  httpPort?: number;
  log: Logger;
  /** Time and timers (default: the system clock); tests pass a virtual one. */
  clock?: Clock;
  /** Connection caps, line deadline and reply buffer limit of its TCP and HTTP ports (connectionLimits.ts). */
  limits?: ServerLimits;
}
