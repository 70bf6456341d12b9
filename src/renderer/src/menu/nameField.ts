/**
 * The pilot-name field of the first start's prompt and of the settings
 * screen: the input (16 printable characters at most) and the line under it
 * that says why a name cannot be used. `line()` is the console line that sets
 * the typed name, or null once the reason is shown (nothing is sent then).
 */
import { quoteArgument } from '../../../shared/console/tokenize';
import { PLAYER_NAME_MAX, validatePlayerName } from '../../../shared/wire/strings';
import { el } from './menuPanel';

export interface NameField {
  input: HTMLInputElement;
  error: HTMLElement;
  /** `name <typed name>`, or null (the reason shown under the field). */
  line(): string | null;
  /** The name as typed and checked (trimmed), or null. */
  checked(): string | null;
}

export function nameField(id: string, className: string, errorClass: string): NameField {
  const input = el('input', `menu-input ${className}`);
  input.id = id;
  input.maxLength = PLAYER_NAME_MAX;
  input.autocomplete = 'off';
  input.spellcheck = false;
  input.setAttribute('aria-label', 'pilot name');
  const error = el('p', errorClass);
  error.id = `${id.replace(/-input$/, '')}-error`;
  error.hidden = true;
  const checked = (): string | null => {
    const result = validatePlayerName(input.value);
    error.hidden = result.ok;
    error.textContent = result.ok ? '' : `That name cannot be used: ${result.error}.`;
    return result.ok ? result.name : null;
  };
  return {
    input,
    error,
    checked,
    line: () => {
      const name = checked();
      return name === null ? null : `name ${quoteArgument(name)}`;
    },
  };
}
