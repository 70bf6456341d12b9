import { MENU_COMMAND_PAGES, MENU_PAGES, isMenuPage } from '../../shared/menu/menuState';
import type { HostService } from './hostService';

/**
 * `menu [page]`: opens a menu page over the game, or closes the menu with
 * `menu off` (what the menu's own buttons run, so scripts and tests drive the
 * game with or without it). Opening a page closes any dialog. Without an
 * argument: the page showing, and the pages there are.
 */
export function registerMenuCommand(host: HostService): () => void {
  return host.console.addCommand({
    name: 'menu',
    help: 'open a menu page over the game (main, servers, settings) or close the menu (off)',
    usage: `[${MENU_COMMAND_PAGES.join('|')}]`,
    args: { max: 1 },
    complete: (_args, argIndex) => (argIndex === 0 ? [...MENU_COMMAND_PAGES] : []),
    run: (args, out) => {
      const page = args[0];
      if (page === undefined) {
        out.print(`menu: ${host.menu.page === 'off' ? 'closed' : `showing ${host.menu.page}`} (menu ${MENU_COMMAND_PAGES.join('|')})`);
        return;
      }
      if (!isMenuPage(page)) {
        out.print(`menu: no page "${page}" (pages: ${MENU_PAGES.join(', ')})`, 'error');
        return;
      }
      host.setMenu({ page, dialog: null });
    },
  });
}
