/**
 * The settings screen's modal: waiting for the key, mouse button or gamepad
 * button to bind ("press a key for Fire laser"), and asking before a change
 * that takes something away ("J drops a mine: bind it to Fire laser
 * instead?", "reset every binding?"). While it shows, the rest of the page is
 * inert; every key goes to it first (the page's takeKey), so a captured key
 * reaches neither the game nor the menu nor the console key, and Esc cancels.
 */
import { parseInputName, PAD_INPUTS } from '../../../shared/settings/bindings';
import { mouseInput } from '../game/input';
import { el, menuButton } from './menuPanel';

/** A key's name in the bindings table (what `bind` takes), or why it cannot be bound. */
export type CapturedKey = { ok: true; input: string } | { ok: false; reason: string };

/**
 * KeyboardEvent.code → the input `bind` takes: the code itself, when `bind`
 * reads it back as that same input (KeyJ, Space, F5, Numpad7, ArrowUp …).
 * Escape cancels a capture and is never bound; a key the browser does not
 * name cannot be bound.
 */
export function keyInput(code: string): CapturedKey {
  if (code === '' || code === 'Unidentified') return { ok: false, reason: 'the browser gives that key no name; try another' };
  if (code === 'Escape') return { ok: false, reason: 'Esc cancels (it opens the pause menu in a game)' };
  if (parseInputName(code) !== code) return { ok: false, reason: `${code} cannot be bound; try another key` };
  return { ok: true, input: code };
}

/** A gamepad button (standard mapping index) → its input name, or null past the mapping's buttons. */
export function padInput(index: number): string | null {
  return PAD_INPUTS[index] ?? null;
}

/** The mouse button of a MouseEvent → its input name (Mouse1 left, Mouse2 right, Mouse3 middle). */
export const mouseButtonInput = mouseInput;

type State = { kind: 'idle' } | { kind: 'waiting'; done: (input: string) => void } | { kind: 'asking' };

export class BindCapture {
  /** The modal (hidden while idle); goes inside the page, after its content. */
  readonly element: HTMLElement;
  private readonly title: HTMLElement;
  private readonly text: HTMLElement;
  private readonly problem: HTMLElement;
  private readonly actions: HTMLElement;
  private state: State = { kind: 'idle' };
  /** Pad buttons held at the last frame: a press is a button not held then. */
  private padHeld: readonly boolean[] = [];
  /** What had the focus when the modal opened (it gets it back on cancel). */
  private returnTo: HTMLElement | null = null;

  /** `inert`: the parts of the page the modal covers (made inert while it shows). */
  constructor(private readonly inert: () => HTMLElement[]) {
    this.element = el('div', 'settings-modal');
    this.element.id = 'settings-modal';
    this.element.hidden = true;
    const card = el('div', 'settings-modal-card');
    card.tabIndex = -1;
    card.setAttribute('role', 'dialog');
    card.setAttribute('aria-modal', 'true');
    this.title = el('h2', 'settings-modal-title');
    this.text = el('p', 'menu-help');
    this.problem = el('p', 'settings-error');
    this.problem.id = 'settings-modal-problem';
    this.problem.hidden = true;
    this.actions = el('div', 'settings-modal-actions');
    card.append(this.title, this.text, this.problem, this.actions);
    this.element.append(card);
    // A mouse button pressed anywhere while waiting is the input (the modal covers the window).
    this.element.addEventListener('mousedown', (e) => {
      if (this.state.kind !== 'waiting') return;
      e.preventDefault();
      this.take(mouseButtonInput(e.button));
    });
    this.element.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  /** Whether the modal shows (the page's other controls are inert meanwhile). */
  get busy(): boolean {
    return this.state.kind !== 'idle';
  }

  /** Waits for the input to bind to `what`; `done` gets its name. */
  waitFor(what: string, done: (input: string) => void): void {
    this.open('Press a key', `Press the key, mouse button or gamepad button for ${what}. Esc cancels.`);
    this.actions.replaceChildren();
    this.state = { kind: 'waiting', done };
    (this.element.firstElementChild as HTMLElement).focus();
  }

  /** Asks `question`; `yes` runs when the player confirms with `confirm`, nothing when they cancel. */
  ask(title: string, question: string, confirm: string, yes: () => void): void {
    this.open(title, question);
    const ok = menuButton(confirm, () => {
      this.close();
      yes();
    }, 'settings-modal-ok');
    const cancel = menuButton('Cancel', () => this.cancel(), 'settings-modal-cancel');
    this.actions.replaceChildren(ok, cancel);
    this.state = { kind: 'asking' };
    // Cancel has the keyboard: Enter by mistake takes nothing away.
    cancel.focus();
  }

  /** Closes the modal without doing anything; the focus goes back where it was. */
  cancel(): void {
    if (this.busy) this.close();
  }

  /** Every key while waiting (Esc cancels); Esc while asking. Returns whether the key was the modal's. */
  takeKey(e: KeyboardEvent): boolean {
    if (this.state.kind === 'idle') return false;
    if (e.key === 'Escape' || e.code === 'Escape') {
      if (!e.repeat) this.cancel();
      return true;
    }
    if (this.state.kind === 'asking') return false;
    if (e.repeat) return true;
    const key = keyInput(e.code);
    if (key.ok) this.take(key.input);
    else this.say(key.reason);
    return true;
  }

  /** The pad's buttons each frame: while waiting, a button pressed now is the input. Returns whether the modal took them. */
  takePad(buttons: readonly boolean[]): boolean {
    const held = this.padHeld;
    this.padHeld = [...buttons];
    if (this.state.kind !== 'waiting') return false;
    const pressed = buttons.findIndex((down, i) => down && !held[i]);
    const input = pressed < 0 ? null : padInput(pressed);
    if (input !== null) this.take(input);
    return true;
  }

  private take(input: string): void {
    if (this.state.kind !== 'waiting') return;
    const { done } = this.state;
    this.close();
    done(input);
  }

  private say(problem: string): void {
    this.problem.textContent = problem;
    this.problem.hidden = false;
  }

  private open(title: string, text: string): void {
    if (!this.busy) this.returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    this.title.textContent = title;
    this.text.textContent = text;
    this.problem.hidden = true;
    for (const part of this.inert()) part.inert = true;
    this.element.hidden = false;
  }

  /** Hides the modal; the focus goes back to where it was when the modal opened. */
  private close(): void {
    this.state = { kind: 'idle' };
    this.element.hidden = true;
    this.actions.replaceChildren();
    for (const part of this.inert()) part.inert = false;
    this.returnTo?.focus();
    this.returnTo = null;
  }
}
