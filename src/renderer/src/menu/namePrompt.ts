/**
 * The first start's question: the pilot's name (until one is chosen, the
 * menu shows this instead of its page). Confirming runs `name <name>`; a name
 * the game would refuse is explained under the field and not sent.
 */
import { el, menuButton, type MenuContext } from './menuPanel';
import { nameField } from './nameField';

export function namePrompt(ctx: MenuContext): { element: HTMLElement; show(): void } {
  const element = el('section', 'menu-panel menu-name');
  element.id = 'menu-name';
  element.append(el('h1', 'menu-title', 'Welcome to Starlane'), el('p', 'menu-help', 'Choose your pilot name: the one other players see in games and on the scoreboard.'));
  const field = nameField('menu-name-input', 'menu-name-input', 'menu-error');
  const input = field.input;
  const confirm = () => {
    const line = field.line();
    if (line !== null) ctx.run(line);
  };
  const ok = menuButton('Continue', confirm, 'menu-name-ok');
  ok.dataset['primary'] = '';
  element.append(input, field.error, ok);
  return {
    element,
    show: () => {
      if (input.value === '') input.value = ctx.settings().playerName;
    },
  };
}
