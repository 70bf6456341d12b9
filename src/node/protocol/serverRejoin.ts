/**
 * The server protocols' rejoin policy (serverClient.ts): a removal or a lost
 * link while the server is silent, or within 5 s after it, is the stall's
 * doing (serverSilence.ts), so the client says so and connects to the same
 * server again, once per silence; any other lost game ends with how to join
 * again.
 */
import type { ProtocolContext } from '../../shared/protocol/protocol';
import type { SilenceWatch } from '../../shared/session/serverSilence';

/** The server a protocol connects to. */
export interface ServerTarget {
  host: string;
  port: number;
}

/** The server as `connect` takes it (`[v6]:port`, `host:port`); null: none. */
export function targetText(t: ServerTarget | null): string | null {
  return t ? `${t.host.includes(':') ? `[${t.host}]` : t.host}:${t.port}` : null;
}

/** How to get back in, for the line that ends a game. */
export function howToRejoin(t: ServerTarget | null): string {
  return t ? ` (type connect ${targetText(t)} to join again)` : '';
}

export class RejoinPolicy {
  /** Set when the server dropped us after a stall: connect again to the same server once the link is closed. */
  pending = false;

  /** `silence`: the session's watch on the server (none before init). */
  constructor(
    private readonly ctx: ProtocolContext,
    private readonly silence: () => SilenceWatch | undefined,
  ) {}

  /** Whether a stall excuses the removal or the lost link: then we rejoin, once per stall. */
  afterStall(): boolean {
    return this.silence()?.excuses(this.ctx.game.now()) ?? false;
  }

  /** Dropped after a stall: say so, and connect again to the same server once the link has closed (`pending`). */
  later(what: string): void {
    const ms = this.silence()?.recentSilenceMs(this.ctx.game.now()) ?? null;
    this.silence()?.forget();
    this.ctx.print(`${what} after it stopped responding${ms === null ? '' : ` for ${(ms / 1000).toFixed(0)} s`}; rejoining`);
    this.pending = true;
  }

  /** The stall has been answered by a rejoin: the next one needs a silence of its own. */
  forget(): void {
    this.silence()?.forget();
  }
}
