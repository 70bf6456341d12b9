/**
 * Pure console line editing: a key and the current state in, the next state
 * and what the host should do out. No DOM or terminal here; the renderer turns
 * xterm.js key events into {@link KeyInput} and writes {@link renderLine}.
 *
 * Positions are UTF-16 indexes, but the cursor moves and deletes by code point
 * so it never splits a surrogate pair (emoji). Combining marks are separate
 * steps. Lines are capped at {@link MAX_LINE_LENGTH}: input past it is dropped,
 * since the registry would refuse the line anyway.
 */

import { MAX_LINE_LENGTH } from './tokenize';

/** The line being edited. */
export interface LineState {
  text: string;
  /** 0 ≤ cursor ≤ text.length, never inside a surrogate pair. */
  cursor: number;
  /** Index into history of the entry shown, or -1 when editing a new line. */
  historyIndex: number;
  /** The new line as it was when the user started walking history; restored on walking back down past the newest. */
  draft: string;
}

/**
 * A key press. `key` is `KeyboardEvent.key` ('a', 'Enter', 'ArrowLeft', 'Tab', …).
 * The renderer should clear ctrl/alt when AltGraph is down (AltGr+Q = '@' on
 * German layouts reports ctrl+alt), since modified keys are never inserted.
 */
export interface KeyInput {
  key: string;
  ctrl?: boolean;
  alt?: boolean;
  meta?: boolean;
  shift?: boolean;
}

/**
 * What the host does after a key: `submit` the line to the registry,
 * `complete` the text before the cursor (then {@link applyCompletion}),
 * `clear-screen`, `cancel` (show the line as aborted; the state is already
 * cleared), or nothing beyond redrawing.
 */
export type LineAction =
  | { type: 'none' }
  | { type: 'submit'; line: string }
  | { type: 'complete'; line: string }
  | { type: 'clear-screen' }
  | { type: 'cancel' };

/** An empty new line. */
export function emptyLine(): LineState {
  return { text: '', cursor: 0, historyIndex: -1, draft: '' };
}

const NONE: LineAction = { type: 'none' };
const CONTROL = /[\x00-\x1f\x7f-\x9f]/g;

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** Start of the code point before `i`. */
function prevPos(text: string, i: number): number {
  if (i <= 0) return 0;
  return i >= 2 && isLow(text.charCodeAt(i - 1)) && isHigh(text.charCodeAt(i - 2)) ? i - 2 : i - 1;
}

/** End of the code point at `i`. */
function nextPos(text: string, i: number): number {
  if (i >= text.length) return text.length;
  return isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1)) ? i + 2 : i + 1;
}

const isSpace = (text: string, i: number): boolean => text.charCodeAt(i) <= 32;

/** Start of the whitespace-delimited word before `i` (readline's unix-word-rubout). */
function wordStart(text: string, i: number): number {
  let j = i;
  while (j > 0 && isSpace(text, j - 1)) j--;
  while (j > 0 && !isSpace(text, j - 1)) j--;
  return j;
}

/** End of the whitespace-delimited word at or after `i`. */
function wordEnd(text: string, i: number): number {
  let j = i;
  while (j < text.length && isSpace(text, j)) j++;
  while (j < text.length && !isSpace(text, j)) j++;
  return j;
}

/** Clamps a state from outside so the rules below hold whatever it was. */
function normalize(state: LineState): LineState {
  let cursor = Math.min(Math.max(0, Math.trunc(state.cursor) || 0), state.text.length);
  if (cursor > 0 && cursor < state.text.length && isLow(state.text.charCodeAt(cursor)) && isHigh(state.text.charCodeAt(cursor - 1))) cursor--;
  return cursor === state.cursor ? state : { ...state, cursor };
}

/** Inserts already-clean text at the cursor, dropping what would pass the length cap (never half a pair). */
function insertClean(s: LineState, text: string): LineState {
  let room = MAX_LINE_LENGTH - s.text.length;
  if (room <= 0 || text === '') return s;
  if (text.length > room) {
    if (isHigh(text.charCodeAt(room - 1))) room--;
    text = text.slice(0, room);
  }
  return { ...s, text: s.text.slice(0, s.cursor) + text + s.text.slice(s.cursor), cursor: s.cursor + text.length };
}

/** Replaces text[from, to) with nothing and puts the cursor at `from`. */
function cut(s: LineState, from: number, to: number): LineState {
  if (from >= to) return { ...s, cursor: from };
  return { ...s, text: s.text.slice(0, from) + s.text.slice(to), cursor: from };
}

/** Shows history entry `index` (-1 = back to the draft). */
function showHistory(s: LineState, index: number, history: readonly string[]): LineState {
  const draft = s.historyIndex === -1 ? s.text : s.draft;
  const entry = index >= 0 ? history[index] : undefined;
  // An index the (possibly shortened) history no longer has falls back to the draft.
  const text = (entry ?? draft).slice(0, MAX_LINE_LENGTH);
  return { text, cursor: text.length, historyIndex: entry === undefined ? -1 : index, draft: entry === undefined ? '' : draft };
}

/**
 * Applies one key. Bindings: printable characters insert; Backspace, Delete;
 * ArrowLeft/Right, Home/End, Ctrl-A/E, Ctrl-ArrowLeft/Right (word); Ctrl-U
 * (kill to start), Ctrl-K (kill to end), Ctrl-W and Ctrl-Backspace (kill
 * previous word); ArrowUp/Down walk `history` (oldest first, as kept by
 * {@link pushHistory}); Enter submits and resets; Tab asks for completion;
 * Ctrl-L clears the screen; Ctrl-C cancels. Anything else, including keys
 * with ctrl/alt/meta that are not bindings, does nothing. Never throws.
 */
export function editLine(state: LineState, key: KeyInput, history: readonly string[]): { state: LineState; action: LineAction } {
  const s = normalize(state);
  const same = { state: s, action: NONE };
  const to = (next: LineState): { state: LineState; action: LineAction } => ({ state: next, action: NONE });
  const { text, cursor } = s;
  if (key.ctrl && !key.alt && !key.meta) {
    switch (key.key.toLowerCase()) {
      case 'a':
        return to({ ...s, cursor: 0 });
      case 'e':
        return to({ ...s, cursor: text.length });
      case 'u':
        return to(cut(s, 0, cursor));
      case 'k':
        return to(cut(s, cursor, text.length));
      case 'w':
      case 'backspace':
        return to(cut(s, wordStart(text, cursor), cursor));
      case 'arrowleft':
        return to({ ...s, cursor: wordStart(text, cursor) });
      case 'arrowright':
        return to({ ...s, cursor: wordEnd(text, cursor) });
      case 'l':
        return { state: s, action: { type: 'clear-screen' } };
      case 'c':
        return { state: emptyLine(), action: { type: 'cancel' } };
      default:
        return same;
    }
  }
  if (key.ctrl || key.alt || key.meta) return same;
  switch (key.key) {
    case 'Enter':
      return { state: emptyLine(), action: { type: 'submit', line: text } };
    case 'Tab':
      return { state: s, action: { type: 'complete', line: text.slice(0, cursor) } };
    case 'Backspace':
      return to(cut(s, prevPos(text, cursor), cursor));
    case 'Delete':
      return to(cut(s, cursor, nextPos(text, cursor)));
    case 'ArrowLeft':
      return to({ ...s, cursor: prevPos(text, cursor) });
    case 'ArrowRight':
      return to({ ...s, cursor: nextPos(text, cursor) });
    case 'Home':
      return to({ ...s, cursor: 0 });
    case 'End':
      return to({ ...s, cursor: text.length });
    case 'ArrowUp': {
      // From the new line start at the newest entry; at the oldest stay (keeping any edits).
      const from = s.historyIndex === -1 || s.historyIndex >= history.length ? history.length : s.historyIndex;
      return from === 0 ? same : to(showHistory(s, from - 1, history));
    }
    case 'ArrowDown': {
      if (s.historyIndex === -1) return same;
      const next = s.historyIndex + 1;
      return to(showHistory(s, next < history.length ? next : -1, history));
    }
  }
  // One code point and not a control character: a typed character (named keys are longer).
  const k = key.key;
  const single = k.length === 1 || (k.length === 2 && isHigh(k.charCodeAt(0)) && isLow(k.charCodeAt(1)));
  if (!single || /[\x00-\x1f\x7f-\x9f]/.test(k)) return same;
  return to(insertClean(s, k));
}

/**
 * Puts a completion in: `completedLine` (from the registry, for the text before
 * the cursor) replaces that text, the rest of the line stays after the cursor.
 * The caller must drop a completion that arrives after the line changed.
 */
export function applyCompletion(state: LineState, completedLine: string): LineState {
  const s = normalize(state);
  const rest = s.text.slice(s.cursor);
  return insertClean({ ...s, text: rest, cursor: 0 }, completedLine.replace(CONTROL, ''));
}

/**
 * Inserts pasted text at the cursor: trailing line breaks are dropped, inner
 * line breaks and tabs become spaces, other control characters (and so escape
 * sequences' ESC) are removed. Text past the length cap is dropped.
 */
export function insertText(state: LineState, text: string): LineState {
  // A loop, not /[\r\n]+$/, which backtracks quadratically on pastes with many line breaks.
  let end = text.length;
  while (end > 0 && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
  const clean = text
    .slice(0, end)
    .replace(/\r\n|[\r\n\t]/g, ' ')
    .replace(CONTROL, '');
  return insertClean(normalize(state), clean);
}

/**
 * The xterm.js sequence that redraws the line: CR, prompt, text before the
 * cursor, save cursor (DECSC), the rest, erase to end of row, restore cursor
 * (DECRC). Letting the terminal remember the cursor keeps it right for wide
 * characters without measuring them. Correct while prompt + text fit on one
 * row: once a line wraps, CR only reaches the start of the cursor's row, so the
 * earlier rows are not redrawn (the renderer must move up itself for that).
 * `prompt` is written as given (it may carry colour); control characters in
 * the text are shown as U+FFFD so history from elsewhere cannot inject escapes.
 */
export function renderLine(prompt: string, state: LineState): string {
  const s = normalize(state);
  const before = s.text.slice(0, s.cursor).replace(CONTROL, '\ufffd');
  const after = s.text.slice(s.cursor).replace(CONTROL, '\ufffd');
  if (after === '') return '\r' + prompt + before + '\x1b[K';
  return '\r' + prompt + before + '\x1b7' + after + '\x1b[K' + '\x1b8';
}

/**
 * Returns history with `line` appended (oldest first), unless it is blank or
 * equal to the newest entry; keeps at most `max` newest entries. Never mutates.
 */
export function pushHistory(history: readonly string[], line: string, max = 200): string[] {
  const next = line.trim() === '' || history[history.length - 1] === line ? [...history] : [...history, line];
  const cap = Math.max(0, Math.floor(max));
  return next.length > cap ? next.slice(next.length - cap) : next;
}
