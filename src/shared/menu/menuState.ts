/**
 * The menu over the game (issue 24): which page shows, and the dialog over
 * it. The host owns this state (the console's `menu` command and every menu
 * button drive it alike); pages draw it. Pure data.
 */

/** The menu pages; `off` is the game without a menu. */
export const MENU_PAGES = ['main', 'practice', 'lan', 'host', 'servers', 'demos', 'settings', 'pause', 'off'] as const;
export type MenuPage = (typeof MENU_PAGES)[number];

/** The pages the `menu` command names (the others are reached from them). */
export const MENU_COMMAND_PAGES = ['main', 'servers', 'demos', 'settings', 'off'] as const;

/** What a dialog offers, as buttons: each runs one console line. */
export interface DialogAction {
  label: string;
  /** The console line the button runs. */
  command: string;
}

/** A dialog over the menu or the game: a lost connection, a removal, a join refused. */
export interface MenuDialog {
  title: string;
  text: string;
  actions: DialogAction[];
}

/** A demo of the demos folder as the Demos page lists it. */
export interface MenuDemo {
  name: string;
  /** Its date, length, protocol and players (the `demos` line). */
  line: string;
}

export interface MenuState {
  page: MenuPage;
  dialog: MenuDialog | null;
  /** The demos folder as last read (`demos`, or opening the Demos page); absent before. */
  demos?: MenuDemo[];
}

export const isMenuPage = (v: unknown): v is MenuPage => typeof v === 'string' && (MENU_PAGES as readonly string[]).includes(v);
