/**
 * The cvars only the page reads (archived, so they are remembered): how the
 * view is drawn — `ui_scale` (HUD and menu size), `r_quality` (resolution
 * and stars) and `r_effects` (particles, trails, rings, glows) — and `m_invert` (the mouse's pitch). The host keeps, checks and
 * saves them like every cvar; the page applies a change the moment its
 * `settings` event arrives (renderer view/display.ts, game/input.ts).
 */
import { DEFAULT_QUALITY, QUALITY_LEVELS, UI_SCALE_MAX, UI_SCALE_MIN } from '../../shared/settings/display';
import type { HostService } from './hostService';

export function registerPageCvars(host: HostService): () => void {
  const cvars = [
    host.addCvar({
      name: 'ui_scale',
      type: 'float',
      default: 1,
      min: UI_SCALE_MIN,
      max: UI_SCALE_MAX,
      help: 'size of the HUD and the menu (1 = normal; below 1 only the menu shrinks, its text no smaller than 12 px)',
      flags: { archive: true },
    }),
    host.addCvar({
      name: 'r_quality',
      type: 'string',
      default: DEFAULT_QUALITY,
      allowed: QUALITY_LEVELS,
      help: 'drawing detail: low (3/4 resolution, fewer stars), medium (1 pixel per CSS pixel), high (the display\'s full resolution)',
      flags: { archive: true },
    }),
    host.addCvar({
      name: 'r_effects',
      type: 'bool',
      default: true,
      help: 'effects: explosions, sparks, smoke, missile trails, shock rings and glowing bolts (0 draws none, for a slow machine)',
      flags: { archive: true },
    }),
    host.addCvar({
      name: 'm_invert',
      type: 'bool',
      default: false,
      help: 'mouse: move it forward to dive instead of to climb',
      flags: { archive: true },
    }),
  ];
  return () => {
    for (const c of cvars) host.console.removeCvar(c.name);
  };
}
