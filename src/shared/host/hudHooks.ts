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
  /** Our rank under the radar ("rank 1 of 3"), null while it is not shown. */
  rank: string | null;
}
