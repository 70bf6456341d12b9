/**
 * The combat HUD over the view: the crosshair where our bolts go, the marks
 * on the target (targetMarks.ts: brackets with name, distance, shield and
 * hull; the lead indicator; the edge arrow), the incoming-missile warning
 * (incoming.ts), the damage-direction marker when a blow takes our shield
 * or hull (damageDir.ts, fed by the world views' events), hit markers
 * (hitMarkers.ts, fed by shotWatch.ts from every world view), and the radar with our rank in the match under it
 * (radar.ts). The marks move every frame with the frame just drawn (the
 * view's camera); words change a few times a second at most.
 *
 * Size: every part grows with `ui_scale` (as the rest of the HUD, never
 * below 1) and with the window past 1600 × 900 (`--hud-win`, up to 2), as
 * one factor `--hud-k` that combat.css multiplies its sizes by; uiScale.css
 * applies `--hud-win` to the rest of the HUD too.
 */
import './combat.css';
import * as THREE from 'three';
import type { Quat, Vec3 } from '../../../../shared/sim/types';
import { NO_TARGET } from '../../../../shared/sim/types';
import { forwardOf } from '../../../../shared/sim/vec';
import { MATCH_PLAYING } from '../../../../shared/game/types';
import type { ShipView, WorldView } from '../../../../shared/game/view';
import type { HudHookState } from '../../../../shared/host/hudHooks';
import type { RemoteView } from '../remoteShips';
import { setText } from '../dom';
import { Projector } from './projector';
import { TargetMarks, place } from './targetMarks';
import { IncomingWarning } from './incoming';
import { blowSource, DamageMarker } from './damageDir';
import { HitMarkers, type HitState } from './hitMarkers';
import { ShotWatch } from '../../../../shared/game/shotWatch';
import { Radar, type Contact } from './radar';
import { bodyOffset } from './scope';
import { rankOf, rankText } from './combatText';

/** Where the crosshair sits without a target: our bolts' place this far ahead (units; a bolt flies 600 in its life). */
const CROSSHAIR_RANGE = 400;
/** The window size at which the HUD has its base size; it grows past it (up to WINDOW_GROWTH_MAX times). */
const BASE_W = 1600;
const BASE_H = 900;
const WINDOW_GROWTH_MAX = 2;

/** What one frame of the combat HUD needs. */
export interface CombatFrame {
  prev: WorldView;
  curr: WorldView;
  /** How far from `prev` to `curr` the frame was drawn. */
  alpha: number;
  /** The remote ships as the frame drew them. */
  remotes: readonly RemoteView[];
  /** The targeted slot (NO_TARGET: none). */
  target: number;
  /** The frame's camera, the window's size (CSS px). */
  camera: THREE.PerspectiveCamera;
  width: number;
  height: number;
  nowMs: number;
}

/** Our ship as the frame drew it. */
interface Pose {
  pos: Vec3;
  vel: Vec3;
  rot: Quat;
}

export class CombatHud {
  private readonly layer: HTMLElement;
  private readonly crosshair: HTMLElement;
  private readonly rank: HTMLElement;
  private readonly marks: TargetMarks;
  private readonly incoming: IncomingWarning;
  private readonly damage: DamageMarker;
  /** The world view before the newest (the object that struck us is gone from the newest). */
  private lastView: WorldView | null = null;
  private readonly hits: HitMarkers;
  private readonly radar: Radar;
  private readonly shots = new ShotWatch();
  /** The page clock of the last world view (verdicts come with views). */
  private lastWorldMs = 0;
  private readonly proj = new Projector();
  private readonly qa = new THREE.Quaternion();
  private readonly qb = new THREE.Quaternion();
  private uiScale = 1;
  private windowK = 1;

  constructor(parent: HTMLElement = document.body) {
    this.layer = document.createElement('div');
    this.layer.id = 'combat-hud';
    this.crosshair = document.createElement('div');
    this.crosshair.id = 'hud-crosshair';
    this.crosshair.hidden = true;
    this.layer.append(this.crosshair);
    this.marks = new TargetMarks(this.layer);
    this.incoming = new IncomingWarning(this.layer);
    this.damage = new DamageMarker(this.layer);
    this.hits = new HitMarkers(this.layer);
    parent.append(this.layer);
    this.radar = new Radar(parent);
    this.rank = document.createElement('div');
    this.rank.id = 'hud-rank';
    this.rank.hidden = true;
    this.radar.panel.append(this.rank);
    window.addEventListener('resize', () => this.resized());
    this.resized();
  }

  /** The `ui_scale` cvar's value: the HUD grows with it (never below 1). */
  setUiScale(scale: number): void {
    this.uiScale = scale;
    this.applyScale();
  }

  /** The HUD's size factor now: ui_scale (at least 1) times the window's growth. */
  get k(): number {
    return Math.max(1, this.uiScale) * this.windowK;
  }

  private resized(): void {
    this.windowK = Math.min(WINDOW_GROWTH_MAX, Math.max(1, Math.min(window.innerWidth / BASE_W, window.innerHeight / BASE_H)));
    this.applyScale();
  }

  private applyScale(): void {
    const root = document.documentElement.style;
    root.setProperty('--hud-win', this.windowK.toFixed(3));
    root.setProperty('--hud-k', this.k.toFixed(3));
    this.radar.fit();
  }

  /**
   * Every world view the host sends, in order: our shots' hits as this screen sees them get their
   * markers at once, then the deciding game's verdicts the view carries (WorldView.hits) resolve theirs.
   */
  onWorld(view: WorldView, nowMs: number): void {
    this.lastWorldMs = nowMs;
    for (const hit of this.shots.next(view)) this.hits.add(hit, nowMs);
    for (const v of view.hits ?? []) this.resolveHit(v.key, v.state);
    // The blows on our ship: the marker points the way the last one came from.
    for (const e of view.events ?? []) {
      if (e.type !== 'hit' || e.slot !== view.localSlot) continue;
      const source = blowSource(e, view, this.lastView);
      if (source) this.damage.hit(source, nowMs);
    }
    this.lastView = view;
  }

  /**
   * What the game that decides hits said of the hit of shot `key` (SeenHit.key): its marker, while
   * it shows, turns `confirmed` or `withdrawn` (hitLedger.ts decides, in the host).
   */
  resolveHit(key: string, state: HitState): void {
    this.hits.resolve(key, state, this.lastWorldMs);
  }

  /** One frame, drawn just now by the view. */
  frame(f: CombatFrame): void {
    const k = this.k;
    this.proj.set(f.camera, f.width, f.height);
    const us = this.pose(f);
    const target = f.target === NO_TARGET || !us ? null : this.targetShip(f);
    this.marks.update(this.proj, us, target, k);
    let cx = f.width / 2;
    let cy = f.height / 2;
    if (us) {
      const nose = forwardOf(us.rot);
      const d = this.marks.aimDistance ?? CROSSHAIR_RANGE;
      const p = this.proj.project({ x: us.pos.x + nose.x * d, y: us.pos.y + nose.y * d, z: us.pos.z + nose.z * d });
      if (p.onScreen) {
        cx = p.x;
        cy = p.y;
      }
      place(this.crosshair, cx, cy);
    }
    if (this.crosshair.hidden !== !us) this.crosshair.hidden = !us;
    const local = f.curr.localSlot;
    const incoming = f.curr.objects.filter((o) => o.kind === 'missile' && o.type === local && o.owner !== local).map((o) => o.pos);
    this.incoming.update(this.proj, us?.pos ?? null, incoming, cx, cy, k);
    this.damage.update(us, (slot) => f.remotes.find((r) => r.slot === slot)?.pos ?? f.curr.ships.find((s) => s.slot === slot)?.pos, cx, cy, f.nowMs);
    this.hits.update(this.proj, f.nowMs);
    this.radar.draw(us ? this.contacts(f, us) : [], us !== null, f.nowMs);
  }

  /** A few times a second: our rank (with someone to play against, while a match is on), and the radar's bitmap size. */
  slow(view: WorldView, inGame: readonly number[], opponents: boolean): void {
    const text = opponents && view.match.phase === MATCH_PLAYING ? rankText(rankOf(view, inGame)) : '';
    if (this.rank.hidden !== (text === '')) this.rank.hidden = text === '';
    setText(this.rank, text);
    this.radar.fit();
  }

  /** What the player sees of the combat HUD (the `hud()` page hook). */
  state(): HudHookState {
    const c = this.radar.counts;
    return {
      crosshair: !this.crosshair.hidden,
      radarContacts: c.ships + c.missiles + c.mines + c.extras,
      radar: { ...c },
      ...this.marks.state,
      hitMarkers: this.hits.total,
      hitMarkersShowing: this.hits.showing,
      hitMarkersConfirmed: this.hits.resolvedTotal.confirmed,
      hitMarkersWithdrawn: this.hits.resolvedTotal.withdrawn,
      missileWarning: this.incoming.count > 0,
      damageDir: this.damage.state,
      rank: this.rank.hidden ? null : this.rank.textContent,
    };
  }

  /** Our ship where the frame drew it, or null while it has none. */
  private pose(f: CombatFrame): Pose | null {
    const b = f.curr.ships.find((s) => s.slot === f.curr.localSlot);
    if (!b) return null;
    const a = f.prev.ships.find((s) => s.slot === f.curr.localSlot) ?? b;
    const t = f.alpha;
    this.qa.set(a.rot.x, a.rot.y, a.rot.z, a.rot.w);
    this.qb.set(b.rot.x, b.rot.y, b.rot.z, b.rot.w);
    this.qa.slerp(this.qb, t);
    return {
      pos: { x: a.pos.x + (b.pos.x - a.pos.x) * t, y: a.pos.y + (b.pos.y - a.pos.y) * t, z: a.pos.z + (b.pos.z - a.pos.z) * t },
      vel: b.vel,
      rot: { x: this.qa.x, y: this.qa.y, z: this.qa.z, w: this.qa.w },
    };
  }

  /** The targeted ship where the frame drew it, with its figures from the newest view. */
  private targetShip(f: CombatFrame): { name: string; pos: Vec3; vel: Vec3; shield: number; damage: number } | null {
    const drawn = f.remotes.find((r) => r.slot === f.target);
    const ship: ShipView | undefined = f.curr.ships.find((s) => s.slot === f.target);
    if (!drawn || !ship) return null;
    return { name: drawn.name, pos: drawn.pos, vel: ship.vel, shield: ship.shield, damage: ship.damage };
  }

  /** The radar's contacts round `us`: the other ships as drawn, missiles, mines, extras and the system's stargates. */
  private contacts(f: CombatFrame, us: Pose): Contact[] {
    const out: Contact[] = [];
    for (const r of f.remotes) out.push({ kind: r.slot === f.target ? 'target' : 'enemy', body: bodyOffset(r.pos, us.pos, us.rot) });
    const local = f.curr.localSlot;
    for (const o of f.curr.objects) {
      const kind = o.kind === 'missile' ? (o.type === local && o.owner !== local ? 'incoming' : 'missile') : o.kind === 'mine' || o.kind === 'extra' ? o.kind : null;
      if (kind) out.push({ kind, body: bodyOffset(o.pos, us.pos, us.rot) });
    }
    for (const g of f.curr.system?.gates ?? []) out.push({ kind: 'gate', body: bodyOffset(g.pos, us.pos, us.rot) });
    return out;
  }
}
