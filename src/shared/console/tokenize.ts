/**
 * Console line tokenizer and command splitter (Quake III's Cmd_TokenizeString
 * and Cbuf_Execute rules, cut down to what a typed line needs).
 *
 * Rules shared by both functions, so that splitting and tokenizing always agree
 * on what is quoted:
 * - characters with code ≤ 32 (space, tab, control characters) separate words;
 * - `"` starts a quoted word; inside it `\"` is a quote and `\\` a backslash,
 *   any other backslash is literal (so `"C:\maps"` works); a quote that is never
 *   closed takes the rest of the line;
 * - `//` outside quotes starts a comment that runs to the end of the line;
 * - `;` and line breaks outside quotes end a command; a line break also ends a
 *   quote, as in Quake, so one bad line in a script cannot swallow the next.
 *
 * Both run in one pass, linear in the line length. They accept any length; the
 * caller refuses lines longer than {@link MAX_LINE_LENGTH} before calling them.
 */

/** Longest line the console accepts; longer lines are refused with one message by the caller. */
export const MAX_LINE_LENGTH = 1024;

/** One word of a line, with where it sits in the text it was cut from. */
export interface Token {
  /** The word with quotes and escapes removed. */
  text: string;
  /** Index of its first character (the opening quote for a quoted word). */
  start: number;
  /** Index just past its last character (past the closing quote, if any). */
  end: number;
  /** True when the word was written in double quotes. */
  quoted: boolean;
  /** False only for a quoted word whose closing quote is missing. */
  closed: boolean;
}

/** Result of {@link tokenizeDetailed}. */
export interface TokenizeResult {
  tokens: Token[];
  /** True when a `//` comment cut the line short. */
  comment: boolean;
}

/** One command of a line as cut by {@link splitCommandSegments}. */
export interface CommandSegment {
  /** Raw text of the command, untrimmed, without a trailing comment. */
  text: string;
  /** Index of `text` in the line. */
  start: number;
  /** True when a `//` comment followed this command on the same line. */
  comment: boolean;
  /** True when the segment ended inside an unclosed quote. */
  openQuote: boolean;
}

const QUOTE = 0x22;
const SLASH = 0x2f;
const BACKSLASH = 0x5c;
const SEMICOLON = 0x3b;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits one command into words and keeps their positions (completion needs
 * them to replace the word being typed). Never throws. Keeps an unclosed empty
 * quoted word (`say "`) so completion knows a quote is open; {@link tokenize}
 * drops it.
 */
export function tokenizeDetailed(line: string): TokenizeResult {
  const tokens: Token[] = [];
  const n = line.length;
  let i = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (c <= 32) {
      i++;
      continue;
    }
    if (c === SLASH && line.charCodeAt(i + 1) === SLASH) return { tokens, comment: true };
    const start = i;
    if (c === QUOTE) {
      i++;
      let text = '';
      let closed = false;
      while (i < n) {
        const d = line.charCodeAt(i);
        if (d === BACKSLASH) {
          const next = line.charCodeAt(i + 1);
          if (next === QUOTE || next === BACKSLASH) {
            text += line[i + 1];
            i += 2;
            continue;
          }
        } else if (d === QUOTE) {
          i++;
          closed = true;
          break;
        }
        text += line[i];
        i++;
      }
      tokens.push({ text, start, end: i, quoted: true, closed });
      continue;
    }
    // A quote or `//` ends a bare word, as in Quake: `a"b c"` is `a` and `b c`.
    while (i < n) {
      const d = line.charCodeAt(i);
      if (d <= 32 || d === QUOTE || (d === SLASH && line.charCodeAt(i + 1) === SLASH)) break;
      i++;
    }
    tokens.push({ text: line.slice(start, i), start, end: i, quoted: false, closed: true });
  }
  return { tokens, comment: false };
}

/**
 * Splits one command into words: `say "hello world"` → `['say', 'hello world']`.
 * An empty word appears only for a closed empty quote (`""`). Does not split on
 * `;` (use {@link splitCommands} first). Never throws.
 */
export function tokenize(line: string): string[] {
  const words: string[] = [];
  for (const t of tokenizeDetailed(line).tokens) {
    // `say "` has no argument: an unclosed quote with nothing after it is not a word.
    if (t.closed || t.text.length > 0) words.push(t.text);
  }
  return words;
}

/**
 * Cuts a line into commands at `;` and line breaks outside quotes, keeping
 * every segment (empty ones too) with its offset; a `//` comment ends the
 * segment it is in and is dropped. Never throws.
 */
export function splitCommandSegments(line: string): CommandSegment[] {
  const segments: CommandSegment[] = [];
  const n = line.length;
  let segStart = 0;
  let inQuote = false;
  let i = 0;
  const push = (end: number, comment: boolean): void => {
    segments.push({ text: line.slice(segStart, end), start: segStart, comment, openQuote: inQuote });
  };
  while (i < n) {
    const c = line.charCodeAt(i);
    if (c === LF || c === CR) {
      push(i, false);
      inQuote = false;
      segStart = i + 1;
      i++;
      continue;
    }
    if (inQuote) {
      const next = line.charCodeAt(i + 1);
      // Skip escaped characters so `"a\";b"` stays one command, matching tokenizeDetailed.
      if (c === BACKSLASH && (next === QUOTE || next === BACKSLASH)) i += 2;
      else {
        if (c === QUOTE) inQuote = false;
        i++;
      }
      continue;
    }
    if (c === QUOTE) inQuote = true;
    else if (c === SEMICOLON) {
      push(i, false);
      segStart = i + 1;
    } else if (c === SLASH && line.charCodeAt(i + 1) === SLASH) {
      push(i, true);
      // The comment runs to the next line break, which starts the next segment.
      let j = i + 2;
      while (j < n && line.charCodeAt(j) !== LF && line.charCodeAt(j) !== CR) j++;
      if (j >= n) return segments;
      segStart = j + 1;
      i = j + 1;
      continue;
    }
    i++;
  }
  push(n, false);
  return segments;
}

/**
 * Splits a line into commands on `;` outside quotes (`name a; say hi` →
 * `['name a', 'say hi']`), trimmed, with blank commands and comments dropped.
 * Trailing spaces inside an unclosed quote are kept because they belong to it.
 */
export function splitCommands(line: string): string[] {
  const out: string[] = [];
  for (const seg of splitCommandSegments(line)) {
    const text = seg.text;
    // Trim by hand with the tokenizer's notion of space (code ≤ 32), not String.trim's Unicode one.
    let a = 0;
    let b = text.length;
    while (a < b && text.charCodeAt(a) <= 32) a++;
    if (a === b) continue;
    if (!seg.openQuote) while (b > a && text.charCodeAt(b - 1) <= 32) b--;
    out.push(text.slice(a, b));
  }
  return out;
}

/**
 * The inverse of {@link tokenize} for one word: returns it as is when it
 * would read back unchanged, else in double quotes with `"` and `\` escaped.
 * `force` quotes regardless; `close: false` leaves the quote open (completion
 * of a prefix that the user is still typing).
 */
export function quoteArgument(word: string, options: { force?: boolean; close?: boolean } = {}): string {
  const { force = false, close = true } = options;
  // Empty, spaces/controls, quotes, `;` and `//` would split, vanish or start a comment.
  if (!force && word !== '' && !/[\x00-\x20";]|\/\//.test(word)) return word;
  return '"' + word.replace(/[\\"]/g, (m) => '\\' + m) + (close ? '"' : '');
}
