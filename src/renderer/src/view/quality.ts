/**
 * What each `r_quality` level draws (shared/settings/display.ts names them):
 * how many device pixels a CSS pixel of the view gets, how many stars, and
 * how many specks of near dust the ship flies through (starfield.ts).
 * Antialiasing stays on at every level (WebGL chooses it when the context is
 * made, and a new context would cost the view its canvas).
 */
import type { QualityLevel } from '../../../shared/settings/display';

export interface QualityProfile {
  /** Device pixels per CSS pixel of the view, given the display's own ratio. */
  pixelRatio(devicePixelRatio: number): number;
  /** Stars in the sky. */
  stars: number;
  /** Specks of dust round the camera (the near layer that shows motion). */
  dust: number;
}

export const QUALITY: Readonly<Record<QualityLevel, QualityProfile>> = {
  low: { pixelRatio: (dpr) => 0.75 * Math.min(dpr, 1), stars: 1000, dust: 250 },
  medium: { pixelRatio: (dpr) => Math.min(dpr, 1), stars: 2000, dust: 600 },
  high: { pixelRatio: (dpr) => Math.min(dpr, 2), stars: 3000, dust: 1000 },
};

/** The most stars any level draws (the sky is made once with these, and a level draws the first `stars`). */
export const MAX_STARS = Math.max(...Object.values(QUALITY).map((q) => q.stars));

/** The most dust any level draws (made once, a level draws the first `dust`). */
export const MAX_DUST = Math.max(...Object.values(QUALITY).map((q) => q.dust));
