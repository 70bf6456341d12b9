/**
 * What every menu page is to the menu: its element, the console line Esc (or
 * a gamepad's B) runs on it, and a hook called whenever it shows. Pages build
 * their controls with the helpers below; every action runs console lines.
 */
import type { Settings } from '../../../shared/settings/settings';
import type { MenuPage, MenuState } from '../../../shared/menu/menuState';

/** What a page may use: run console lines on the host, read the settings. */
export interface MenuContext {
  run(line: string): void;
  settings(): Settings;
  /** The root page the player came from (`main`, or `pause` in a game): where Back goes. */
  home(): 'main' | 'pause';
  /** The menu state the host last sent (the Demos page's list). */
  menu(): MenuState;
}

export interface MenuPanel {
  readonly page: MenuPage;
  readonly element: HTMLElement;
  /** The console line Esc runs on this page; null: Esc does nothing here. */
  back(): string | null;
  /** Called when the page shows, and when the settings change while it shows. */
  refresh?(): void;
  /**
   * A key the page takes before the menu, the console key and fullscreen see
   * it (the settings screen waiting for a key to bind); true: it was the page's.
   */
  takeKey?(e: KeyboardEvent): boolean;
  /** The gamepad's buttons each frame the page shows, before the menu reads them; true: the page took them. */
  takePad?(buttons: readonly boolean[]): boolean;
}

/** An element with a class and optional text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = ''): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text) e.textContent = text;
  return e;
}

/** A menu button that runs `action` when clicked (Enter and the pad's A click the focused one). */
export function menuButton(label: string, action: () => void, id?: string): HTMLButtonElement {
  const b = el('button', 'menu-button', label);
  b.type = 'button';
  if (id) b.id = id;
  b.addEventListener('click', action);
  return b;
}

/** A page's frame: a title, an optional line of help, and the body the page fills. */
export function panelFrame(page: MenuPage, title: string, help = ''): { element: HTMLElement; body: HTMLElement } {
  const element = el('section', 'menu-panel');
  element.id = `menu-${page}`;
  element.dataset['page'] = page;
  element.append(el('h1', 'menu-title', title));
  if (help) element.append(el('p', 'menu-help', help));
  const body = el('div', 'menu-body');
  element.append(body);
  return { element, body };
}

/** A whole-number field with a label, kept within lo..hi (Left/Right step it from the keyboard). */
export function numberField(label: string, id: string, lo: number, hi: number, value: number): { row: HTMLElement; input: HTMLInputElement; value(): number } {
  const row = el('label', 'menu-field');
  row.append(el('span', 'menu-field-label', label));
  const input = el('input', 'menu-input');
  input.type = 'number';
  input.id = id;
  input.min = String(lo);
  input.max = String(hi);
  input.step = '1';
  input.value = String(value);
  row.append(input);
  return {
    row,
    input,
    value: () => {
      const n = Math.round(Number(input.value));
      return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : lo;
    },
  };
}

/** A saved whole-number cvar as the page knows it, or `fallback`. */
export function cvarInt(settings: Settings, name: string, fallback: number): number {
  const n = Number(settings.cvars[name]);
  return Number.isFinite(n) ? Math.round(n) : fallback;
}
