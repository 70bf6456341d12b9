/**
 * The `offline` protocol: single player. It never touches the packet API, so
 * it works even when no packet API could be bound.
 */
import type { Protocol, ProtocolContext } from '../../shared/net/protocol';

/** Name of the offline protocol as typed in the console. */
export const OFFLINE_PROTOCOL = 'offline';

/**
 * Single-player protocol: `init`/`kill` only track state and nothing is ever
 * sent or received. Owns no resources; both calls are idempotent.
 */
export class OfflineProtocol implements Protocol {
  readonly name = OFFLINE_PROTOCOL;
  private running = false;

  // The context is accepted for a uniform factory signature; offline has no use for it.
  constructor(_context?: ProtocolContext) {}

  async init(): Promise<void> {
    this.running = true;
  }

  async kill(): Promise<void> {
    this.running = false;
  }

  status(): string {
    return this.running ? 'offline: single player, no packets are sent' : 'offline: not started';
  }
}
