/**
 * The settings page (issue 24): every setting is a cvar or a binding, so the
 * console sets the same. (Being built.)
 */
import { menuButton, panelFrame, type MenuContext, type MenuPanel } from './menuPanel';

export function settingsPanel(ctx: MenuContext): MenuPanel {
  const { element, body } = panelFrame('settings', 'Settings');
  body.append(menuButton('Back', () => ctx.run(`menu ${ctx.home()}`), 'settings-back'));
  return { page: 'settings', element, back: () => `menu ${ctx.home()}` };
}
