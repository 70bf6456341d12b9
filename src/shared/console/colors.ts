/**
 * ANSI colours for console output levels, and the inverse (stripping escape
 * sequences) for tests and log files. The command registry never emits escape
 * sequences itself; the renderer colours each printed line with
 * {@link formatForTerminal} just before writing it to xterm.js.
 */

/** How a printed line is shown: errors red, warnings yellow, echoed input grey, info plain. */
export type OutputLevel = 'info' | 'warn' | 'error' | 'echo';

/** SGR sequence that resets all attributes. */
export const ANSI_RESET = '\x1b[0m';

/** SGR sequence that starts each level's colour; info is empty (terminal default). */
export const LEVEL_SGR: Readonly<Record<OutputLevel, string>> = {
  info: '',
  warn: '\x1b[33m',
  error: '\x1b[31m',
  // Bright black is grey on every common palette; SGR 2 (dim) is ignored by some.
  echo: '\x1b[90m',
};

/**
 * Wraps `text` in the colour of `level` (default info = unchanged). Does not
 * sanitize; use {@link formatForTerminal} for text that may hold escapes.
 */
export function colorize(text: string, level: OutputLevel = 'info'): string {
  const sgr = LEVEL_SGR[level];
  return sgr === '' || text === '' ? text : sgr + text + ANSI_RESET;
}

/*
 * One alternation, longest forms first: OSC (ESC ] … BEL or ST, or unterminated
 * to the end), DCS/SOS/PM/APC strings (ESC P/X/^/_ … ST), CSI (ESC [ or 8-bit
 * 0x9B, parameters, intermediates, final byte), then any other two-character
 * escape with optional intermediates (ESC 7, ESC ( B, …).
 */
const ANSI_SEQUENCE =
  /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b[ -/]*[0-~]/g;

/** Removes ANSI/VT escape sequences from `text`; other characters are kept as they are. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_SEQUENCE, '');
}

// C0 controls except tab and line breaks, DEL, and C1 controls.
const UNSAFE_CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

/**
 * Makes text safe to write to a terminal: removes escape sequences and control
 * characters other than tab and line breaks. Text printed to the console can
 * come from other players (names, chat); without this a peer could clear the
 * screen, retitle the window or write the clipboard (OSC 52).
 */
export function sanitizeForTerminal(text: string): string {
  return stripAnsi(text).replace(UNSAFE_CONTROLS, '');
}

/**
 * Turns one printed message into what the renderer writes to xterm.js:
 * sanitized, split on line breaks, each line coloured on its own (so a colour
 * never bleeds past a line), joined and ended with CRLF (xterm.js does not turn
 * LF into CRLF unless `convertEol` is set).
 */
export function formatForTerminal(text: string, level: OutputLevel = 'info'): string {
  const lines = sanitizeForTerminal(text).split(/\r\n|\r|\n/);
  return lines.map((l) => colorize(l, level)).join('\r\n') + '\r\n';
}
