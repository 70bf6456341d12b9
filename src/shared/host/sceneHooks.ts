/** The game view's page hook (`window.__starlane.scene()`, pageHooks.ts), read by the e2e tests. */

/** One ship as the last frame drew it. */
export interface SceneShip {
  slot: number;
  /** Its model's design (`dart`, `wasp`, `manta`: src/renderer/src/view/shipModels.ts) and colour (0xRRGGBB). */
  design: string;
  colour: number;
  /** Our own ship (the camera follows it; it has no tag). */
  own: boolean;
  /** The tag with its name and bars shows above it (never for ours, nor for the targeted ship: its brackets carry them). */
  tag: boolean;
}

/** What the 3-D view drew in its last frame (src/renderer/src/view/scene.ts), read only. */
export interface SceneHookState {
  /** The ships drawn, by slot (ascending). */
  ships: SceneShip[];
  /** Missiles drawn with an exhaust trail (none with `r_effects 0`). */
  trails: number;
  /** Explosions still burning (flash, fire, sparks and ring; each counts for about a second). */
  explosions: number;
  /** Effect particles alive (explosions, sparks, smoke, trails, sparkles, glints). */
  particles: number;
  /** Pickup sparkles started since the view was made (an extra taken, by any ship; none with `r_effects 0`). */
  sparkles: number;
  /** EMP shock rings started since the view was made (none with `r_effects 0`). */
  empRings: number;
  /** Shock rings growing now (explosions' and EMPs'). */
  rings: number;
  /** Energy fields drawn in the last frame, and the glints emitted round them since the view was made. */
  fields: number;
  fieldGlints: number;
  /** The sky drawn: stars, specks of near dust (both by `r_quality`), and whether the nebula backdrop shows. */
  sky: { stars: number; dust: number; backdrop: boolean };
  /** The stargates drawn (the solar system's, on a gameserver with a galaxy), by the system each leads to. */
  gates: string[];
}
