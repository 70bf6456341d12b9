/**
 * The server browser page (issue 24): the masterserver's list and the LAN's
 * answers in one table. (Being built: for now it refreshes into the console.)
 */
import type { BrowserState } from '../../../shared/servers/browserState';
import { menuButton, panelFrame, type MenuContext, type MenuPanel } from './menuPanel';

export interface ServersPanel extends MenuPanel {
  /** The host's browser state changed. */
  update(state: BrowserState): void;
}

export function serversPanel(ctx: MenuContext): ServersPanel {
  const { element, body } = panelFrame('servers', 'Server browser');
  body.append(menuButton('Refresh', () => ctx.run('servers'), 'servers-refresh'), menuButton('Back', () => ctx.run(`menu ${ctx.home()}`)));
  return { page: 'servers', element, back: () => `menu ${ctx.home()}`, update: () => {} };
}
