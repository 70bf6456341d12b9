/**
 * The server browser's filters (issue 24), as toggle buttons (Enter, Space,
 * a click or a gamepad's A flip one; a checkbox would take Enter for the
 * page's main button): which list — all, favourites, joined lately — hide
 * full, hide empty, and the kinds of server shown. They only choose what the
 * page shows: nothing is asked of the host.
 */
import type { BrowserFilter } from '../../../shared/servers/browserModel';
import type { MasterServerType } from '../../../shared/servers/masterProtocol';
import { MASTER_SERVER_TYPES } from '../../../shared/servers/masterProtocol';
import { el } from './menuPanel';

/** A button that is on or off (aria-pressed), flipped by `onPress`. */
export function toggleButton(label: string, id: string, pressed: boolean, onPress: (b: HTMLButtonElement) => void): HTMLButtonElement {
  const b = el('button', 'menu-button servers-toggle', label);
  b.type = 'button';
  b.id = id;
  b.setAttribute('aria-pressed', String(pressed));
  b.addEventListener('click', () => onPress(b));
  return b;
}

export const isPressed = (b: HTMLElement): boolean => b.getAttribute('aria-pressed') === 'true';

const KIND_LABELS: Record<MasterServerType, string> = { slotserver: 'slotservers', gameserver: 'gameservers', netgame: 'netgames' };

/** The filter bar; `changed` is called after every press. */
export function serversFilters(changed: () => void) {
  const element = el('div', 'servers-filters');
  const group = (label: string, ...buttons: HTMLButtonElement[]) => {
    const g = el('div', 'servers-group');
    g.append(el('span', 'servers-group-label', label), ...buttons);
    return g;
  };
  // Which list: one of three.
  const lists = (['all', 'favourites', 'recent'] as const).map((which) =>
    toggleButton(which === 'all' ? 'All' : which === 'favourites' ? 'Favourites' : 'Recent', `servers-show-${which}`, which === 'all', (b) => {
      for (const o of lists) o.setAttribute('aria-pressed', String(o === b));
      changed();
    }),
  );
  const flip = (b: HTMLButtonElement) => {
    b.setAttribute('aria-pressed', String(!isPressed(b)));
    changed();
  };
  const full = toggleButton('Full', 'servers-hide-full', false, flip);
  const empty = toggleButton('Empty', 'servers-hide-empty', false, flip);
  const kinds = MASTER_SERVER_TYPES.map((kind) => ({ kind, button: toggleButton(KIND_LABELS[kind], `servers-kind-${kind}`, true, flip) }));
  element.append(group('Show', ...lists), group('Hide', full, empty), group('Kinds', ...kinds.map((k) => k.button)));
  return {
    element,
    value(): BrowserFilter {
      const shown = kinds.filter((k) => isPressed(k.button)).map((k) => k.kind);
      const which = lists.findIndex(isPressed);
      return {
        hideFull: isPressed(full),
        hideEmpty: isPressed(empty),
        // Every kind on: rows of unknown kind show too.
        ...(shown.length < kinds.length ? { kinds: shown } : {}),
        ...(which === 1 ? { only: 'favourites' as const } : which === 2 ? { only: 'recent' as const } : {}),
      };
    },
  };
}
