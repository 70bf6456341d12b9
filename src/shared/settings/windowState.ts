/**
 * The game window as the player left it (Electron): size, position,
 * maximised and fullscreen, saved in settings.json and put back at the next
 * start — on a display that still exists. Pure: the Electron entry reads the
 * displays and the window's events (src/main/window.ts).
 */

export interface WindowState {
  /** Top-left corner in screen coordinates; absent: centred by the window system. */
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
  fullscreen: boolean;
}

/** A display's work area (screen coordinates). */
export interface WorkArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_WINDOW: Readonly<WindowState> = Object.freeze({ width: 1280, height: 800, maximized: false, fullscreen: false });
/** The smallest window (the menus and HUD need this much room). */
export const MIN_WINDOW = Object.freeze({ width: 640, height: 400 });
/** How much of the window's top edge must lie on a display for the saved position to be kept (so the title bar can be grabbed). */
const GRAB = Object.freeze({ width: 120, height: 40 });

const int = (v: unknown, min: number, max: number): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : undefined);

/** Untrusted JSON (settings.json's `window`) as a state; what is missing or wrong takes the default. */
export function sanitizeWindowState(raw: unknown): WindowState {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ...DEFAULT_WINDOW };
  const r = raw as Record<string, unknown>;
  const out: WindowState = {
    width: int(r.width, MIN_WINDOW.width, 16_384) ?? DEFAULT_WINDOW.width,
    height: int(r.height, MIN_WINDOW.height, 16_384) ?? DEFAULT_WINDOW.height,
    maximized: r.maximized === true,
    fullscreen: r.fullscreen === true,
  };
  const x = int(r.x, -100_000, 100_000);
  const y = int(r.y, -100_000, 100_000);
  if (x !== undefined && y !== undefined) {
    out.x = x;
    out.y = y;
  }
  return out;
}

/**
 * Where the saved window goes on the displays there are now: its position
 * kept when enough of its top edge lies on one of them, else left to the
 * window system (centred on the primary display); its size at most the
 * largest work area, at least MIN_WINDOW.
 */
export function placeWindow(saved: WindowState, displays: readonly WorkArea[]): WindowState {
  const widest = displays.reduce((m, d) => Math.max(m, d.width), 0) || saved.width;
  const tallest = displays.reduce((m, d) => Math.max(m, d.height), 0) || saved.height;
  const width = Math.max(MIN_WINDOW.width, Math.min(saved.width, widest));
  const height = Math.max(MIN_WINDOW.height, Math.min(saved.height, tallest));
  const placed: WindowState = { width, height, maximized: saved.maximized, fullscreen: saved.fullscreen };
  if (saved.x === undefined || saved.y === undefined) return placed;
  const { x, y } = saved;
  const onScreen = displays.some((d) => {
    const left = Math.max(x, d.x);
    const right = Math.min(x + width, d.x + d.width);
    const top = Math.max(y, d.y);
    const bottom = Math.min(y + GRAB.height, d.y + d.height);
    return right - left >= GRAB.width && bottom - top >= GRAB.height;
  });
  return onScreen ? { ...placed, x, y } : placed;
}
