/**
 * Whose state a gameserver sends whom, and when (Parsec §2.3.3's distance
 * filter, with interest by space): a state arriving is judged against the
 * players in the spatial grid's neighbouring cells only (spatialGrid.ts),
 * each pair by the filter radius and, with level of detail on, by its tier's
 * rate (levelOfDetail.ts), stretched while the server is overloaded
 * (overload.ts; at its last step near players are thinned too, level of
 * detail on or off). What is in range and ready becomes due to its recipient
 * (the forwarder packs it); what is in range but early is held for the tick.
 */
import { DetailEdges, HYSTERESIS, MAX_TIER_STRETCH, OUT } from './levelOfDetail';
import { withinRadius } from './interest';
import type { ClientSeat } from './seat';
import { SpatialGrid } from './spatialGrid';
import type { SlotSet } from './slotSet';

export class StateInterest {
  /** The tiers' squared edges for the filter radius (null: level of detail off). */
  private readonly edges: DetailEdges | null;
  /** Players by cell: a state is judged against the players near it, not every player. */
  private readonly grid: SpatialGrid<ClientSeat>;
  /** Newest states taken from every player so far (a seat's `unlooked` states are counted from it). */
  private arrivals = 0;
  private readonly arrivalCount = () => this.arrivals;
  /** How much the mid and far tiers' intervals are stretched: 1, or more while the server is overloaded. */
  slowdown = 1;

  constructor(
    private readonly radius: number,
    levelOfDetail: boolean,
  ) {
    this.edges = levelOfDetail ? new DetailEdges(radius) : null;
    // A cell as wide as the farthest pair still in range (the radius and its hysteresis).
    this.grid = new SpatialGrid(radius * (1 + HYSTERESIS));
  }

  /** A new seat: nowhere yet (near everyone), counting the others' states from now. */
  seated(s: ClientSeat): void {
    s.arrivals = this.arrivalCount;
    s.arrivalsAtJoin = this.arrivals;
    this.grid.place(s, undefined);
  }

  /** `s` left: out of the grid, and forgotten by the others' detail. */
  left(s: ClientSeat, others: Iterable<ClientSeat>): void {
    this.grid.remove(s);
    for (const c of others) c.detail.forget(s);
  }

  /**
   * `s` took a newer state: due to the seats in range whose tier's interval
   * passed (added to `dirty`), held for the rest in range, counted as
   * filtered for those out of it. Only the players in the grid's
   * neighbouring cells are looked at; the others are beyond range and count
   * as filtered without a visit (ClientSeat.unlooked).
   */
  newState(s: ClientSeat, everyone: Iterable<ClientSeat>, now: number, dirty: SlotSet<ClientSeat>): void {
    this.grid.place(s, s.pos);
    this.arrivals += 1;
    s.ownArrivals += 1;
    const edges = this.edges;
    this.grid.visitNear(s.pos, everyone, (c) => {
      if (c === s) return;
      c.looked += 1;
      const inRange = edges ? c.detail.judge(edges, s, s.pos, c.pos, now) >= 0 : withinRadius(s.pos, c.pos, this.radius);
      if (!inRange) {
        // Out of range: counted, and not looked at again (a flush sees only what is due).
        c.due.delete(s);
        c.detail.held.delete(s);
        c.filteredJudged += 1;
      } else if ((edges || this.slowdown > MAX_TIER_STRETCH) && !c.detail.ready(s, now, this.slowdown)) {
        // Its tier's interval has not passed: held back (the tick sends it when it has, unless a newer one comes first).
        c.counters.statesThinned += 1;
        c.detail.held.add(s);
      } else {
        c.due.add(s);
        dirty.add(c);
      }
    });
  }

  /** Whether `p`'s state, due to `c`, is still in range when its turn comes (either may have moved). */
  inRange(c: ClientSeat, p: ClientSeat, now: number): boolean {
    return this.edges ? c.detail.judge(this.edges, p, p.pos, c.pos, now) !== OUT : withinRadius(p.pos, c.pos, this.radius);
  }

  /** `a` fired a missile locked on `b`: the two are near each other's detail for a while. */
  engage(a: ClientSeat, b: ClientSeat, now: number): void {
    a.detail.engage(b, now);
    b.detail.engage(a, now);
  }

  /** The tick: states held back whose tier's interval has passed become due (added to `dirty`). */
  releaseHeld(everyone: Iterable<ClientSeat>, now: number, dirty: SlotSet<ClientSeat>): void {
    for (const c of everyone) {
      if (c.detail.held.size === 0) continue;
      for (const p of c.detail.held) {
        if (!c.detail.ready(p, now, this.slowdown)) continue;
        c.detail.held.delete(p);
        if (!c.stateDue(p)) continue;
        c.due.add(p);
        dirty.add(c);
      }
    }
  }
}
