/** The combat HUD's page hook (`window.__starlane.hud()`, pageHooks.ts), read by the e2e tests. */

/** What a player sees of the combat HUD (src/renderer/src/view/combat), for the `hud()` hook. */
export interface HudHookState {
  /** The crosshair shows (we have a ship). */
  crosshair: boolean;
  /** Contacts on the radar in the last frame (ships, missiles, mines, extras), and by sort. */
  radarContacts: number;
  radar: { ships: number; missiles: number; mines: number; extras: number };
  /** The targeted ship's name as the brackets (or the edge arrow) show it; null when neither shows. */
  target: string | null;
  /** Its distance as shown ("420 u"). */
  targetDistance: string | null;
  /** The brackets round the target show (it is on screen). */
  bracket: boolean;
  /** The lead indicator shows. */
  lead: boolean;
  /** The arrow at the window's edge to an off-screen target shows. */
  offscreenArrow: boolean;
  /** Hit markers shown since the page started, and showing now. */
  hitMarkers: number;
  hitMarkersShowing: number;
  /** Hit markers the deciding game confirmed, and withdrew, since the page started (hitLedger.ts). */
  hitMarkersConfirmed: number;
  hitMarkersWithdrawn: number;
  /** The incoming-missile warning shows (a missile homes on us). */
  missileWarning: boolean;
  /**
   * The damage-direction marker round the crosshair (a blow took our shield or
   * hull in the last 1.5 s): the way it points on the window in degrees (0
   * right, 90 down, 180 left, -90 up), the quarter that is, and the firer's
   * slot (-1: it points at a place, a mine or an asteroid); null while hidden.
   */
  damageDir: { angle: number; side: 'right' | 'down' | 'left' | 'up'; from: number } | null;
  /** Our rank under the radar ("rank 1 of 3"), null while it is not shown. */
  rank: string | null;
}
