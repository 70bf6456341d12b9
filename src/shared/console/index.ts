/**
 * Starlane console core: tokenizer, cvars, command registry (main process),
 * pure line editor and ANSI helpers (renderer). Pure TypeScript, safe to import
 * from either side.
 */

export { MAX_LINE_LENGTH, quoteArgument, splitCommandSegments, splitCommands, tokenize, tokenizeDetailed } from './tokenize';
export type { CommandSegment, Token, TokenizeResult } from './tokenize';
export { CONSOLE_NAME, Cvar, requirePrintable } from './cvar';
export type { CvarDef, CvarFlags, CvarListener, CvarSetOptions, CvarSetResult, CvarType, CvarValueOf } from './cvar';
export { ConsoleCore } from './registry';
export type { CommandDef, Completion, ConsoleCoreOptions, ConsoleOutput, FallbackHandler } from './registry';
export { applyCompletion, editLine, emptyLine, insertText, pushHistory, renderLine } from './lineEditor';
export type { KeyInput, LineAction, LineState } from './lineEditor';
export { ANSI_RESET, LEVEL_SGR, colorize, formatForTerminal, sanitizeForTerminal, stripAnsi } from './colors';
export type { OutputLevel } from './colors';
