/**
 * The Demos page: the demos of the user-data demos/ folder (the host reads
 * it when the page opens), each with its date, length, protocol and
 * players, and a button that plays it (`playdemo <name>`). Names and lines
 * go in through textContent.
 */
import { el, menuButton, panelFrame, type MenuContext, type MenuPanel } from './menuPanel';

export function demosPanel(ctx: MenuContext): MenuPanel {
  const { element, body } = panelFrame('demos', 'Demos', 'Recorded games: record and stop in the console make them. Playing one leaves any network game; stop in the console, or Esc then Leave game, ends it.');
  const list = el('div', 'menu-demos');
  list.id = 'demos-list';
  body.append(list, menuButton('Back', () => ctx.run(`menu ${ctx.home()}`)));
  return {
    page: 'demos',
    element,
    back: () => `menu ${ctx.home()}`,
    refresh: () => {
      const demos = ctx.menu().demos;
      if (demos === undefined) return list.replaceChildren(el('p', 'menu-note', 'reading the demos folder…'));
      if (demos.length === 0) return list.replaceChildren(el('p', 'menu-note', 'No demos yet: type record in the console (`) during a game, and stop to end it.'));
      list.replaceChildren(
        ...demos.map((d, i) => {
          const row = el('div', 'menu-demo');
          const play = menuButton(`Play ${d.name}`, () => ctx.run(`playdemo ${d.name}`), `demo-play-${i}`);
          row.append(play, el('p', 'menu-note', d.line));
          return row;
        }),
      );
    },
  };
}
