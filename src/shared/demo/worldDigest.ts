/**
 * The digests a client demo carries and its playback checks (docs/DEMO.md):
 * every DIGEST_EVERY ticks of the game shown. A game the client steps
 * itself (offline, peer to peer, slot- and gameserver games) is digested as
 * what a player sees: every ship (slot, position to 1/16 unit, energy,
 * damage) and every object (kind, owner, id, position to 1/16 unit). A
 * shared world (lockstep, netgame) is digested by its frame hash
 * (hashWorld), the very hash its players print every 40 frames.
 */
import type { ClientGame } from '../game/clientGame';
import { Hasher } from '../game/hasher';
import { HASH_EVERY } from '../lockstep/config';

/** Ticks between two digests (the lockstep check interval too). */
export const DIGEST_EVERY = HASH_EVERY;

const q = (v: number): number => Math.round(v * 16);

/** 16 hex digits: the quantised ships and objects of the world `game` shows now. */
export function gameDigest(game: ClientGame): string {
  const w = game.curr;
  const h = new Hasher();
  h.num(w.tick);
  h.num(w.ships.length);
  for (const s of w.ships) {
    h.num(s.slot);
    h.num(q(s.pos.x));
    h.num(q(s.pos.y));
    h.num(q(s.pos.z));
    h.num(Math.round(s.energy));
    h.num(Math.round(s.damage));
  }
  h.num(w.objects.length);
  for (const o of w.objects) {
    h.text(o.kind);
    h.num(o.owner);
    h.num(o.id);
    h.num(q(o.pos.x));
    h.num(q(o.pos.y));
    h.num(q(o.pos.z));
  }
  return h.hex();
}
