/**
 * The display cvars, applied the moment the settings change (no reload):
 * `ui_scale` sizes the HUD and the menu (the `--ui-scale` CSS variable on
 * the document, read by uiScale.css and menu.css), `r_quality` the view's
 * resolution and stars (SceneView.setQuality), `r_effects` whether effects
 * are drawn (SceneView.setEffects).
 */
import './uiScale.css';
import { qualityOf, uiScaleOf } from '../../../shared/settings/display';
import type { Settings } from '../../../shared/settings/settings';
import type { SceneView } from './scene';

/** Applies the display cvars of `settings` to the document and `view`. */
export function applyDisplay(settings: Settings, view: Pick<SceneView, 'setQuality' | 'setEffects'>, root: HTMLElement = document.documentElement): void {
  root.style.setProperty('--ui-scale', String(uiScaleOf(settings.cvars['ui_scale'])));
  view.setQuality(qualityOf(settings.cvars['r_quality']));
  view.setEffects(settings.cvars['r_effects'] !== '0');
}
