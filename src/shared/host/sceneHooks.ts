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
  /** Effect particles alive (explosions, sparks, smoke, trails). */
  particles: number;
}
