/**
 * The other players as this page sees them: the slot table from the
 * network, one smoothed track per remote ship, and the routing of their
 * remote events (lasers into the local world, kills, chat) to whoever shows
 * them. Holds no DOM and no three.js: main.ts wires it to the HUD and scene.
 */
import type { NetDelivery, NetPlayer } from '../../../shared/net/gameLink';
import { RemoteShipTrack } from '../../../shared/net/smoothing';
import type { Quat, Vec3 } from '../../../shared/sim/types';
import { objectId, objectOwner, type RemoteEvent, type ShipState } from '../../../shared/wire/types';
import { DESTROYED_DAMAGE, type RemoteLaser } from '../game/localGame';

/** One remote ship to draw this frame. Objects are reused between frames: copy what you keep. */
export interface RemoteView {
  slot: number;
  name: string;
  pos: Vec3;
  rot: Quat;
}

/** Where RemotePlayers sends what the rest of the page must act on. */
export interface RemoteSinks {
  /** A remote player fired a laser (replicate it into the local world). */
  laser(slot: number, laser: RemoteLaser): void;
  /** A remote player removed an object of its own that is not its ship. */
  removeObject(id: number): void;
  /** The ship of `victimSlot` was destroyed at `pos` (null if it was not on screen). */
  shipDestroyed(victimSlot: number, killerSlot: number, pos: Vec3 | null): void;
  /** A chat line arrived. */
  chat(from: string, text: string): void;
  /** The slot table or connection status changed. */
  playersChanged(): void;
}

interface Remote {
  readonly track: RemoteShipTrack;
  /** Destroyed: hidden until a state with damage below DESTROYED_DAMAGE arrives. */
  down: boolean;
  readonly view: RemoteView;
}

/**
 * Remote players: feed every `net` delivery to {@link handle}, then call
 * {@link sample} once per frame for the ships to draw.
 */
export class RemotePlayers {
  private table: NetPlayer[] = [];
  private local: number | null = null;
  private statusText = '';
  private readonly remotes = new Map<number, Remote>();
  private readonly drawn: RemoteView[] = [];
  private convergeMs: number;

  constructor(
    private readonly sinks: RemoteSinks,
    convergeMs: number,
  ) {
    this.convergeMs = convergeMs;
  }

  /** The slot table as last delivered (slot order). */
  get players(): readonly NetPlayer[] {
    return this.table;
  }
  /** Our slot, or null while we have none. */
  get localSlot(): number | null {
    return this.local;
  }
  /** The network's one-line connection status. */
  get status(): string {
    return this.statusText;
  }

  /** The name to print for `slot` ("slot N" if the table does not know it). */
  nameOf(slot: number): string {
    return this.table.find((p) => p.slot === slot)?.name ?? `slot ${slot}`;
  }

  /** New correction time for every track (the `net_smooth` cvar). */
  setConvergeMs(ms: number): void {
    this.convergeMs = ms;
    for (const r of this.remotes.values()) r.track.convergeMs = ms;
  }

  /** Applies one delivery that arrived at `nowMs` (the loop's clock). */
  handle(d: NetDelivery, nowMs: number): void {
    switch (d.kind) {
      case 'players':
        this.table = [...d.players].sort((a, b) => a.slot - b.slot);
        this.local = d.localSlot;
        this.statusText = d.status;
        // A slot that left or unjoined takes its ship off the screen; a later join starts a fresh track.
        for (const [slot, r] of this.remotes) {
          if (this.shows(slot)) r.view.name = this.nameOf(slot);
          else this.remotes.delete(slot);
        }
        this.sinks.playersChanged();
        break;
      case 'state':
        this.onState(d.slot, d.state, nowMs, d.ageMs ?? 0);
        break;
      case 'event':
        this.onEvent(d.slot, d.event, nowMs);
        break;
      case 'chat':
        this.sinks.chat(d.from, d.text);
        break;
    }
  }

  /**
   * The remote ships to draw at `nowMs`: joined, not us, not destroyed, with
   * a state. The array and its objects are reused by the next call.
   */
  sample(nowMs: number): readonly RemoteView[] {
    this.drawn.length = 0;
    for (const [slot, r] of this.remotes) {
      if (r.down || !r.track.hasState || !this.shows(slot)) continue;
      const s = r.track.sample(nowMs);
      copyVec(r.view.pos, s.pos);
      const q = r.view.rot;
      q.x = s.rot.x;
      q.y = s.rot.y;
      q.z = s.rot.z;
      q.w = s.rot.w;
      this.drawn.push(r.view);
    }
    return this.drawn;
  }

  /** What the last {@link sample} returned. */
  get lastDrawn(): readonly RemoteView[] {
    return this.drawn;
  }

  private shows(slot: number): boolean {
    if (slot === this.local) return false;
    const p = this.table.find((e) => e.slot === slot);
    return p !== undefined && p.joined && !p.local;
  }

  private remote(slot: number): Remote {
    let r = this.remotes.get(slot);
    if (!r) {
      r = {
        track: new RemoteShipTrack({ convergeMs: this.convergeMs }),
        down: false,
        view: { slot, name: this.nameOf(slot), pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 } },
      };
      this.remotes.set(slot, r);
    }
    return r;
  }

  /** A state of `slot` that arrived at `nowMs` and is `ageMs` old by common game time (0 before the clock is synchronised). */
  private onState(slot: number, state: ShipState, nowMs: number, ageMs: number): void {
    if (slot === this.local) return;
    const r = this.remote(slot);
    if (state.damage >= DESTROYED_DAMAGE) {
      r.down = true;
      return;
    }
    if (r.down) {
      // Back from the dead at a spawn point: a cut, not a slide across the map.
      r.down = false;
      r.track.reset(state, nowMs - ageMs);
      return;
    }
    r.track.onState(state, nowMs, nowMs - ageMs);
  }

  private onEvent(slot: number, ev: RemoteEvent, nowMs: number): void {
    switch (ev.type) {
      case 'createLaser':
        // Only the owner creates objects in its id range; anything else is a confused or lying peer.
        if (objectOwner(ev.id) === slot) this.sinks.laser(slot, ev);
        break;
      case 'killObject': {
        if (objectOwner(ev.id) !== slot) break;
        if (ev.id !== objectId(slot, 0)) {
          this.sinks.removeObject(ev.id);
          break;
        }
        const r = this.remotes.get(slot);
        let pos: Vec3 | null = null;
        if (r && !r.down && r.track.hasState) {
          const p = r.track.sample(nowMs).pos;
          pos = { x: p.x, y: p.y, z: p.z };
        }
        if (r) r.down = true;
        this.sinks.shipDestroyed(slot, ev.killerSlot, pos);
        break;
      }
      // Missiles, extras, generic objects and particle effects are not in the game yet (a later
      // issue): they are ignored rather than half-drawn. Text, names and tables arrive as
      // their own deliveries (chat, players).
      default:
        break;
    }
  }
}

function copyVec(out: Vec3, v: Vec3): void {
  out.x = v.x;
  out.y = v.y;
  out.z = v.z;
}
