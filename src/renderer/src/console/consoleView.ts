import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import type { ConsoleLevel, HostApi } from '../../../shared/host/contract';
import {
  applyCompletion,
  editLine,
  emptyLine,
  insertText,
  pushHistory,
  renderLine,
  type LineState,
} from '../../../shared/console/lineEditor';
import { colorize, sanitizeForTerminal } from '../../../shared/console/colors';
import { MAX_HISTORY } from '../../../shared/settings/settings';
import { wrapLine } from '../view/wordWrap';

const PROMPT = '] ';
/** Printed lines kept to lay out again at a new width (as many as the scroll-back holds rows, at least). */
const MAX_PRINTED = 2000;

/** One thing printed above the line being edited: host output at its level, or a line the player entered. */
interface Printed {
  text: string;
  level: ConsoleLevel | 'input';
}

/**
 * The in-game console: an xterm.js terminal that drops down over the view.
 * Keys go through the pure line editor; lines run on the host, whose output
 * comes back as console events. The toggle key is handled by the page before
 * xterm sees it, so the game keeps its keys while the console is closed.
 *
 * Printed lines are word-wrapped to the terminal's width (view/wordWrap.ts:
 * they break between words, the rows that go on indented), and kept, so when
 * the width changes they are laid out again at the new one rather than left
 * to xterm's reflow, which would cut words where the old rows ended.
 */
export class ConsoleView {
  private readonly term: Terminal;
  private readonly fit = new FitAddon();
  private line: LineState = emptyLine();
  private history: string[];
  private open = false;
  private readonly resizeObserver: ResizeObserver;
  private printed: Printed[] = [];
  /** Columns the buffer's lines were wrapped at. */
  private wrappedAt: number;

  constructor(
    private readonly element: HTMLElement,
    private readonly host: HostApi,
    history: readonly string[],
    private readonly onToggle: (open: boolean) => void,
  ) {
    this.history = [...history];
    this.term = new Terminal({
      scrollback: 2000,
      cursorBlink: true,
      convertEol: false,
      fontSize: 14,
      // At the font's natural height the row box ends inside the descender band, and the DOM
      // renderer clips each row: '_' (drawn at the bottom of that band) vanished. A taller row
      // centres the glyphs with room below them.
      lineHeight: 1.2,
      fontFamily: "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace",
      theme: { background: '#00000000', foreground: '#cfe3ff' },
      allowTransparency: true,
    });
    this.term.loadAddon(this.fit);
    this.term.open(element);
    this.wrappedAt = this.term.cols;
    this.term.onResize(({ cols }) => {
      if (cols !== this.wrappedAt) this.rewrap();
    });
    // The page handles every key itself through the line editor; xterm only renders.
    this.term.attachCustomKeyEventHandler((ev) => {
      if (ev.type !== 'keydown') return false;
      const paste = (ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === 'v';
      if (paste) return true; // let the browser paste; it arrives through onData
      ev.preventDefault();
      this.key(ev);
      return false;
    });
    this.term.onData((data) => {
      this.line = insertText(this.line, data);
      this.redraw();
    });
    // The element is laid out even while closed (styles.css), so the terminal always has its real size.
    this.resizeObserver = new ResizeObserver(() => this.fit.fit());
    this.resizeObserver.observe(element);
    this.fit.fit();
    this.redraw();
  }

  get isOpen(): boolean {
    return this.open;
  }

  toggle(open = !this.open): void {
    this.open = open;
    this.element.hidden = !open;
    if (open) {
      this.fit.fit();
      // Lines written while the console was hidden (a reloaded page's backlog, output of a
      // closed console) leave xterm's viewport wherever it was: opening it shows the newest.
      this.term.scrollToBottom();
      this.term.focus();
    } else {
      this.term.blur();
    }
    this.onToggle(open);
  }

  /** Prints host output above the line being edited, word-wrapped to the terminal's width. */
  print(text: string, level: ConsoleLevel): void {
    const p = this.remember({ text, level });
    this.term.write(`\r\x1b[2K${this.rows(p)}`);
    this.redraw();
  }

  clear(): void {
    this.printed = [];
    this.term.clear();
    this.redraw();
  }

  /** Plain text of the whole buffer (scroll-back included), for tests and copy. */
  text(): string {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  /** Plain text of the rows on screen now (what the player can read without scrolling). */
  screenText(): string {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let i = buffer.viewportY; i < buffer.viewportY + this.term.rows; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  private key(ev: KeyboardEvent): void {
    const typed = this.line.text;
    // AltGr reports as Ctrl+Alt; it types characters (@, { on many layouts), it is not a binding.
    const altGraph = ev.getModifierState('AltGraph');
    const { state, action } = editLine(
      this.line,
      { key: ev.key, ctrl: ev.ctrlKey && !altGraph, alt: ev.altKey && !altGraph, meta: ev.metaKey, shift: ev.shiftKey },
      this.history,
    );
    this.line = state;
    switch (action.type) {
      case 'submit':
        this.remember({ text: PROMPT + action.line, level: 'input' });
        this.term.write('\r\n');
        this.history = pushHistory(this.history, action.line, MAX_HISTORY);
        this.host.command(action.line);
        break;
      case 'complete':
        void this.complete(action.line);
        break;
      case 'clear-screen':
        this.printed = [];
        this.term.clear();
        break;
      case 'cancel':
        this.remember({ text: `${PROMPT}${typed}^C`, level: 'input' });
        this.term.write('^C\r\n');
        break;
      case 'none':
        break;
    }
    this.redraw();
  }

  private async complete(line: string): Promise<void> {
    const result = await this.host.complete(line).catch(() => null);
    if (!result || this.line.text !== line) return; // the player typed on meanwhile
    if (result.candidates.length > 1) this.print(result.candidates.join('  '), 'echo');
    this.line = applyCompletion(this.line, result.line);
    this.redraw();
  }

  private remember(p: Printed): Printed {
    this.printed.push(p);
    if (this.printed.length > MAX_PRINTED) this.printed.splice(0, this.printed.length - MAX_PRINTED);
    return p;
  }

  /**
   * What the terminal is written for `p`: sanitized (peer names and chat are
   * untrusted), split on line breaks, each line word-wrapped to the columns
   * and coloured row by row (a colour never bleeds past a row), ending in CRLF.
   */
  private rows(p: Printed): string {
    const level = p.level === 'input' ? 'info' : p.level;
    const rows = sanitizeForTerminal(p.text)
      .split(/\r\n|\r|\n/)
      .flatMap((line) => wrapLine(line, this.term.cols));
    return rows.map((row) => colorize(row, level)).join('\r\n') + '\r\n';
  }

  /** The width changed: everything printed is laid out again at the new one, the line being edited below it. */
  private rewrap(): void {
    this.wrappedAt = this.term.cols;
    this.term.reset();
    this.term.write(this.printed.map((p) => this.rows(p)).join(''));
    this.redraw();
  }

  private redraw(): void {
    this.term.write(renderLine(PROMPT, this.line));
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    this.term.dispose();
  }
}
