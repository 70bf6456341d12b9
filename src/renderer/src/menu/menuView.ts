/**
 * The menu over the game view (issue 24): one overlay showing, in front to
 * back, a dialog, the first start's name prompt, or the page the host says
 * (MenuState). It is driven with the mouse, the keyboard (Up/Down or Tab
 * move, Enter or Space activates, Left/Right step a number, Esc goes back) and
 * a gamepad (d-pad or left stick, A activates, B goes back). Every action
 * runs console lines on the host, which answers with the new state.
 */
import type { MenuPage, MenuState } from '../../../shared/menu/menuState';
import { dialogView } from './menuDialog';
import { el, type MenuContext, type MenuPanel } from './menuPanel';
import { namePrompt } from './namePrompt';

/** Standard-mapping gamepad buttons the menu reads. */
const PAD = { a: 0, b: 1, up: 12, down: 13, left: 14, right: 15 } as const;

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex="0"]';

export class MenuView {
  readonly element: HTMLElement;
  private readonly panels = new Map<MenuPage, MenuPanel>();
  private readonly prompt: ReturnType<typeof namePrompt>;
  private readonly dialog: ReturnType<typeof dialogView>;
  private state: MenuState = { page: 'off', dialog: null };
  private named = true;
  private layer: HTMLElement | null = null;
  private padHeld = new Set<number>();

  constructor(
    parent: HTMLElement,
    private readonly ctx: MenuContext,
    panels: readonly MenuPanel[],
  ) {
    this.element = el('div', 'menu');
    this.element.id = 'menu';
    this.element.hidden = true;
    this.prompt = namePrompt(ctx);
    this.dialog = dialogView(ctx);
    for (const p of panels) {
      this.panels.set(p.page, p);
      this.element.append(p.element);
    }
    this.element.append(this.prompt.element, this.dialog.element);
    parent.append(this.element);
  }

  /** Whether anything of the menu shows (the game takes no input then). */
  get isOpen(): boolean {
    return this.layer !== null;
  }

  get page(): MenuPage {
    return this.state.page;
  }

  /** Shows the host's menu state; `named`: the player has chosen a name (else the prompt shows over any page). */
  show(state: MenuState, named: boolean): void {
    const changed = state.page !== this.state.page || state.dialog !== this.state.dialog || named !== this.named;
    this.state = state;
    this.named = named;
    const layer = state.dialog ? this.dialog.element : !named && state.page !== 'off' ? this.prompt.element : state.page === 'off' ? null : (this.panels.get(state.page)?.element ?? null);
    if (state.dialog) this.dialog.show(state.dialog);
    if (layer === this.prompt.element) this.prompt.show();
    for (const child of this.element.children) (child as HTMLElement).hidden = child !== layer;
    this.element.hidden = layer === null;
    const panel = this.panels.get(state.page);
    if (layer === panel?.element) panel.refresh?.();
    if (changed || layer !== this.layer) {
      this.layer = layer;
      if (layer) this.focusFirst();
    }
  }

  /** The settings changed: the page showing reads them again. */
  settingsChanged(named: boolean): void {
    this.show(this.state, named);
  }

  /** Puts the keyboard focus back in the menu (after the console closes). */
  focus(): void {
    if (!this.layer) return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && this.layer.contains(active)) return;
    this.focusFirst();
  }

  /** Whether the page showing takes `e` before anything else does (MenuPanel.takeKey). */
  takeKey(e: KeyboardEvent): boolean {
    const panel = this.panels.get(this.state.page);
    return this.layer !== null && this.layer === panel?.element && (panel.takeKey?.(e) ?? false);
  }

  /** The menu's keys; returns whether the key was the menu's (the caller then stops it). */
  key(e: KeyboardEvent): boolean {
    if (!this.layer) return false;
    const target = e.target instanceof HTMLElement ? e.target : null;
    const isNumber = target instanceof HTMLInputElement && target.type === 'number';
    switch (e.key) {
      case 'ArrowDown':
        this.move(1);
        return true;
      case 'ArrowUp':
        this.move(-1);
        return true;
      case 'ArrowLeft':
      case 'ArrowRight':
        if (!isNumber) return false;
        this.step(target, e.key === 'ArrowRight' ? 1 : -1);
        return true;
      case 'Enter':
        // A field's Enter presses the page's main button.
        if (target instanceof HTMLInputElement) {
          this.primary()?.click();
          return true;
        }
        return false;
      case 'Escape':
        this.back();
        return true;
      default:
        return false;
    }
  }

  /** Reads a gamepad once a frame: each press of a button acts once. */
  pad(buttons: readonly boolean[], stickY: number): void {
    const pressed = (i: number, held: boolean) => {
      const was = this.padHeld.has(i);
      if (held) this.padHeld.add(i);
      else this.padHeld.delete(i);
      return held && !was;
    };
    const up = pressed(PAD.up, (buttons[PAD.up] ?? false) || stickY < -0.6);
    const down = pressed(PAD.down, (buttons[PAD.down] ?? false) || stickY > 0.6);
    const left = pressed(PAD.left, buttons[PAD.left] ?? false);
    const right = pressed(PAD.right, buttons[PAD.right] ?? false);
    const a = pressed(PAD.a, buttons[PAD.a] ?? false);
    const b = pressed(PAD.b, buttons[PAD.b] ?? false);
    if (!this.layer) return;
    const panel = this.panels.get(this.state.page);
    if (this.layer === panel?.element && panel.takePad?.(buttons)) return;
    if (up) this.move(-1);
    if (down) this.move(1);
    const focused = document.activeElement;
    if ((left || right) && focused instanceof HTMLInputElement && focused.type === 'number') this.step(focused, right ? 1 : -1);
    if (a && focused instanceof HTMLElement && this.layer.contains(focused)) focused.click();
    if (b) this.back();
  }

  private back(): void {
    if (this.state.dialog || this.layer === this.prompt.element) return;
    const line = this.panels.get(this.state.page)?.back() ?? null;
    if (line) this.ctx.run(line);
  }

  private controls(): HTMLElement[] {
    return this.layer ? [...this.layer.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((e) => e.offsetParent !== null && !e.closest('[inert]')) : [];
  }

  private focusFirst(): void {
    // The console keeps the keyboard while it is open (the menu takes it back when it closes).
    if (document.activeElement?.closest('#console')) return;
    const first = this.controls()[0];
    first?.focus();
  }

  private move(by: number): void {
    const list = this.controls();
    if (list.length === 0) return;
    const at = list.indexOf(document.activeElement as HTMLElement);
    const from = at < 0 ? (by > 0 ? -1 : list.length) : at;
    list[(from + by + list.length) % list.length]?.focus();
  }

  private step(input: HTMLInputElement, by: number): void {
    if (by > 0) input.stepUp();
    else input.stepDown();
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }

  private primary(): HTMLElement | null {
    return this.layer?.querySelector<HTMLElement>('[data-primary]') ?? null;
  }
}
