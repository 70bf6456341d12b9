/**
 * An uplink that can be held and released: while held, every datagram an
 * end sends waits (in order); `release` sends them all at once, as a
 * buffering router or a frozen-then-resumed sender would. Wraps any packet
 * API (`wrap`, for a session rig node's `wrap` option).
 */
import type { NodeAddress, PacketApi } from '../../src/shared/net/packetApi';

export class HeldUplink {
  private held: { to: NodeAddress; data: Uint8Array }[] | null = null;
  private inner: PacketApi | null = null;
  /** Datagrams sent by the last release. */
  released = 0;

  /** The wrapped end: `send` goes through the hold, everything else straight to `api`. */
  readonly wrap = (api: PacketApi): PacketApi => {
    this.inner = api;
    const send = (to: NodeAddress, data: Uint8Array) => (this.held ? this.held.push({ to, data: data.slice() }) : api.send(to, data));
    return new Proxy(api, {
      get: (target, key) => {
        if (key === 'send') return send;
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };

  hold(): void {
    this.held ??= [];
  }

  /** Sends everything held, in order, now; returns how many. */
  release(): number {
    const held = this.held ?? [];
    this.held = null;
    for (const d of held) this.inner?.send(d.to, d.data);
    this.released = held.length;
    return held.length;
  }
}
