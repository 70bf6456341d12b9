/**
 * The two pages a player comes back to: the main menu (the first screen of
 * every start) and the pause menu (Esc in a game). Each button runs the
 * console line that does the same.
 */
import { el, menuButton, panelFrame, type MenuContext, type MenuPanel } from './menuPanel';

export function mainPanel(ctx: MenuContext): MenuPanel {
  const { element, body } = panelFrame('main', 'STARLANE');
  element.classList.add('menu-main');
  body.append(
    menuButton('Practice', () => ctx.run('menu practice'), 'menu-go-practice'),
    menuButton('Play on LAN', () => ctx.run('menu lan'), 'menu-go-lan'),
    menuButton('Host a game', () => ctx.run('menu host'), 'menu-go-host'),
    menuButton('Server browser', () => ctx.run('menu servers'), 'menu-go-servers'),
    menuButton('Demos', () => ctx.run('menu demos'), 'menu-go-demos'),
    menuButton('Settings', () => ctx.run('menu settings'), 'menu-go-settings'),
    menuButton('Quit', () => ctx.run('quit'), 'menu-quit'),
  );
  const pilot = el('p', 'menu-help menu-pilot');
  element.append(pilot);
  return {
    page: 'main',
    element,
    back: () => null,
    refresh: () => {
      pilot.textContent = `pilot: ${ctx.settings().playerName} — press \` for the console`;
    },
  };
}

export function pausePanel(ctx: MenuContext): MenuPanel {
  const { element, body } = panelFrame('pause', 'Paused', 'The game goes on around you while this menu shows.');
  body.append(
    menuButton('Resume', () => ctx.run('menu off'), 'menu-resume'),
    menuButton('Settings', () => ctx.run('menu settings'), 'menu-pause-settings'),
    menuButton('Leave game', () => ctx.run('leave'), 'menu-leave'),
    menuButton('Quit', () => ctx.run('quit'), 'menu-pause-quit'),
  );
  return { page: 'pause', element, back: () => 'menu off' };
}
