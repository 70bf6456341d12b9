/**
 * Netgame on the GameDriver: the shared state runs the game shown, as in
 * lockstep (frameSync.ts). A client's sync steps its NetgameClient with our
 * pilot's input; a hosting player's sync (the seed's "the server is player
 * 0") runs the NetgameServer itself on the host's tick, our controls entered
 * with the same lead as everyone's.
 */
import type { FrameSync, SteppedFrame } from '../game/frameSync';
import { quantiseInput, sameFrameInput } from '../lockstep/input';
import type { ShipInput } from '../sim/types';
import type { FrameInput } from '../wire/types';
import type { NetgameClient } from './client';
import type { NetgameServer } from './server';

/** A client's game: the client's state once it has one (before: the client game as usual). */
export function clientSync(client: NetgameClient): FrameSync {
  return {
    tick(input: ShipInput, at: number) {
      const slot = client.slot;
      if (slot === null || !client.state) return null;
      return { frames: client.tick(input, at), slot };
    },
  };
}

/** The hosting player's game: the server steps one frame a host tick, with our controls as player `slot`. */
export class HostedNetgame implements FrameSync {
  private sent: FrameInput | null = null;

  constructor(
    readonly server: NetgameServer,
    readonly slot = 0,
  ) {}

  tick(input: ShipInput, at: number): { frames: SteppedFrame[]; slot: number } {
    const q = quantiseInput(input);
    if (!this.sent || !sameFrameInput(this.sent, q)) {
      this.sent = q;
      this.server.localControl(this.slot, q);
    }
    const before = this.server.state.world;
    this.server.tick(at);
    return { frames: [{ before, world: this.server.state.world, events: this.server.lastEvents }], slot: this.slot };
  }
}
