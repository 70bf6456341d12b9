/**
 * The display settings' words and limits, shared by the host's cvars
 * (`ui_scale`, `r_quality`: node/host/pageCvars.ts) and the page that applies
 * them (renderer view/display.ts). Pure data.
 */

/** How much of its full detail the view draws: resolution and stars (view/quality.ts). */
export const QUALITY_LEVELS = ['low', 'medium', 'high'] as const;
export type QualityLevel = (typeof QUALITY_LEVELS)[number];
/** Today's look: the full resolution of the display (up to 2 device pixels a CSS pixel). */
export const DEFAULT_QUALITY: QualityLevel = 'high';

/** The HUD and menu size, as a factor of their normal size. */
export const UI_SCALE_MIN = 0.75;
export const UI_SCALE_MAX = 2;

/** `text` as a quality level, or the default (a page reads the saved text as untrusted). */
export function qualityOf(text: string | undefined): QualityLevel {
  return (QUALITY_LEVELS as readonly string[]).includes(text ?? '') ? (text as QualityLevel) : DEFAULT_QUALITY;
}

/** `text` as a UI scale within its limits, or 1. */
export function uiScaleOf(text: string | undefined): number {
  const n = Number(text);
  return text !== undefined && text.trim() !== '' && Number.isFinite(n) ? Math.min(UI_SCALE_MAX, Math.max(UI_SCALE_MIN, n)) : 1;
}
