/**
 * A dialog over the menu or the game — a lost connection, a removal — with
 * the reason and a button per way on (each runs its console line).
 */
import type { MenuDialog } from '../../../shared/menu/menuState';
import { el, menuButton, type MenuContext } from './menuPanel';

export function dialogView(ctx: MenuContext): { element: HTMLElement; show(dialog: MenuDialog): void } {
  const element = el('section', 'menu-panel menu-dialog');
  element.id = 'menu-dialog';
  element.setAttribute('role', 'alertdialog');
  const title = el('h1', 'menu-title');
  const text = el('p', 'menu-help menu-dialog-text');
  const actions = el('div', 'menu-body');
  element.append(title, text, actions);
  return {
    element,
    show: (dialog) => {
      title.textContent = dialog.title;
      text.textContent = dialog.text;
      actions.replaceChildren(...dialog.actions.map((a, i) => {
        const b = menuButton(a.label, () => ctx.run(a.command));
        if (i === 0) b.dataset['primary'] = '';
        return b;
      }));
    },
  };
}
