/**
 * What the page may know of a cvar without the console core: its type,
 * range or choices, default and help, sent once in the host snapshot for
 * every archived cvar. The settings screen draws its controls from this and
 * checks a value with the very rules the host's cvar applies (a detached
 * Cvar built from it), so a range is written once, in the cvar's definition.
 * Pure data.
 */
import { Cvar, type CvarType, type CvarValueOf } from './cvar';

export interface CvarInfo {
  name: string;
  type: CvarType;
  /** The default as console text (bools `1`/`0`). */
  default: string;
  /** First line of the cvar's help. */
  help: string;
  /** Range of an int or float cvar. */
  min?: number;
  max?: number;
  /** Accepted values of a string cvar. */
  allowed?: readonly string[];
  maxLength?: number;
}

/** A live cvar's description for the page. */
export function cvarInfo(cvar: Cvar): CvarInfo {
  const info: CvarInfo = { name: cvar.name, type: cvar.type, default: cvar.defaultText, help: cvar.help.split('\n')[0] ?? '' };
  if (cvar.min !== undefined) info.min = cvar.min;
  if (cvar.max !== undefined) info.max = cvar.max;
  if (cvar.allowed !== undefined) info.allowed = [...cvar.allowed];
  if (cvar.maxLength !== undefined) info.maxLength = cvar.maxLength;
  return info;
}

/** The descriptions of the archived cvars among `cvars` (the ones a player's settings hold), in their order. */
export function archivedCvarInfo(cvars: readonly Cvar[]): CvarInfo[] {
  return cvars.filter((c) => c.flags.archive === true).map(cvarInfo);
}

/**
 * A detached cvar with `info`'s rules, for checking text before it is sent:
 * `checker(info).set(text)` gives the host's own error line
 * (`sensitivity must be a number from 0.1 to 10 (got 12)`). Extra rules a
 * definition's `validate` adds are the host's alone; it still refuses those.
 * Throws when `info` is not a valid definition (a programmer error).
 */
export function cvarChecker(info: CvarInfo): Cvar {
  const value = (text: string): CvarValueOf<CvarType> => (info.type === 'bool' ? text === '1' : info.type === 'string' ? text : Number(text));
  return new Cvar({
    name: info.name,
    type: info.type,
    default: value(info.default),
    help: info.help,
    ...(info.min !== undefined ? { min: info.min } : {}),
    ...(info.max !== undefined ? { max: info.max } : {}),
    ...(info.allowed !== undefined ? { allowed: info.allowed } : {}),
    ...(info.maxLength !== undefined ? { maxLength: info.maxLength } : {}),
  });
}
