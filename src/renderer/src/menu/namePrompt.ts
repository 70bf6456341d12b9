/**
 * The first start's question: the pilot's name (until one is chosen, the
 * menu shows this instead of its page). Confirming runs `name <name>`; a name
 * the game would refuse is explained under the field and not sent.
 */
import { quoteArgument } from '../../../shared/console/tokenize';
import { PLAYER_NAME_MAX, validatePlayerName } from '../../../shared/settings/settings';
import { el, menuButton, type MenuContext } from './menuPanel';

export function namePrompt(ctx: MenuContext): { element: HTMLElement; show(): void } {
  const element = el('section', 'menu-panel menu-name');
  element.id = 'menu-name';
  element.append(el('h1', 'menu-title', 'Welcome to Starlane'), el('p', 'menu-help', 'Choose your pilot name: the one other players see in games and on the scoreboard.'));
  const input = el('input', 'menu-input menu-name-input');
  input.id = 'menu-name-input';
  input.maxLength = PLAYER_NAME_MAX;
  input.autocomplete = 'off';
  input.spellcheck = false;
  input.setAttribute('aria-label', 'pilot name');
  const error = el('p', 'menu-error');
  error.id = 'menu-name-error';
  const confirm = () => {
    const checked = validatePlayerName(input.value);
    if (!checked.ok) {
      error.textContent = `That name cannot be used: ${checked.error}.`;
      return;
    }
    error.textContent = '';
    ctx.run(`name ${quoteArgument(checked.name)}`);
  };
  const ok = menuButton('Continue', confirm, 'menu-name-ok');
  ok.dataset['primary'] = '';
  element.append(input, error, ok);
  return {
    element,
    show: () => {
      if (input.value === '') input.value = ctx.settings().playerName;
    },
  };
}
