/**
 * Player settings: what Starlane remembers between runs. Pure data and
 * validation; the host stores it (src/node/settings/store.ts).
 */

import { defaultBindTable, migrateV1Bindings, sanitizeBindTable, type BindTable } from './bindings';
import { sanitizeWindowState, type WindowState } from './windowState';
import { sanitizeSavedServers, type SavedServers } from '../servers/savedServers';
import { validatePlayerName } from '../wire/strings';

export type { BindTable } from './bindings';

export interface Settings {
  /** Settings file layout version; bumped when a field changes meaning (2: bindings are an input → command table). */
  version: 2;
  playerName: string;
  /** The player has chosen a name (by the first start's prompt or `name`); until then the menu asks for one. */
  pilotNamed: boolean;
  /** Input (key code, `Mouse1`…, `Pad…`) → command (bindings.ts). */
  bindings: BindTable;
  /** Packet API bound at start-up (`udp` or `udp6`). */
  packetApi: string;
  /** Sound system bound at start-up (`webaudio` or `none`; absent: webaudio). */
  sound?: string;
  /** Archived console variables by name, as text (the host writes every archived cvar here). */
  cvars: Record<string, string>;
  /** Console history, newest last. */
  history: string[];
  /** The Electron window as the player left it (absent until it has been moved, sized or made fullscreen). */
  window?: WindowState;
  /** Favourite servers and the servers joined lately (servers/savedServers.ts; absent until there is one). */
  servers?: SavedServers;
}

export const MAX_HISTORY = 200;

export function defaultSettings(): Settings {
  return {
    version: 2,
    playerName: 'pilot',
    pilotNamed: false,
    bindings: defaultBindTable(),
    packetApi: 'udp',
    cvars: {},
    history: [],
  };
}

/** A numeric archived cvar as the renderer reads it: the saved text, or `fallback` when absent or not a finite number. */
export function cvarNumber(settings: Settings, name: string, fallback: number): number {
  const text = settings.cvars[name];
  const n = text === undefined ? NaN : Number(text);
  return Number.isFinite(n) ? n : fallback;
}

type Issue = string;

/**
 * Turns untrusted parsed JSON into Settings. Every field that is missing or
 * wrong falls back to its default and is listed in `issues`, so the caller can
 * tell the player what was reset instead of silently dropping it.
 */
export function sanitizeSettings(raw: unknown): { settings: Settings; issues: Issue[] } {
  const d = defaultSettings();
  const issues: Issue[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { settings: d, issues: ['settings file is not a JSON object'] };
  }
  const r = raw as Record<string, unknown>;
  const out: Settings = { ...d, bindings: { ...d.bindings }, cvars: {}, history: [] };

  if (typeof r.playerName === 'string' && validatePlayerName(r.playerName).ok) out.playerName = r.playerName.trim();
  else if (r.playerName !== undefined) issues.push('playerName');
  // A file from before the prompt existed: a name other than the default was chosen by the player.
  if (typeof r.pilotNamed === 'boolean') out.pilotNamed = r.pilotNamed;
  else if (r.pilotNamed !== undefined) issues.push('pilotNamed');
  else out.pilotNamed = out.playerName !== d.playerName;

  if (r.bindings !== undefined) {
    // Version 1 (or no version) kept one key per action, keyed by the action: moved to the table with every custom key.
    const v1 = r.version !== 2 && typeof r.bindings === 'object' && r.bindings !== null && !Array.isArray(r.bindings);
    const { table, invalid } = v1 ? migrateV1Bindings(r.bindings as Record<string, unknown>) : { table: null, invalid: [] };
    if (table) {
      out.bindings = table;
      issues.push(...invalid.map((a) => `bindings.${a}`));
    } else {
      const clean = sanitizeBindTable(r.bindings);
      out.bindings = clean.table;
      issues.push(...clean.issues);
    }
  }

  if (r.packetApi === 'udp' || r.packetApi === 'udp6') out.packetApi = r.packetApi;
  else if (r.packetApi !== undefined) issues.push('packetApi');

  if (r.sound === 'webaudio' || r.sound === 'none') out.sound = r.sound;
  else if (r.sound !== undefined) issues.push('sound');

  if (typeof r.cvars === 'object' && r.cvars !== null && !Array.isArray(r.cvars)) {
    for (const [k, v] of Object.entries(r.cvars as Record<string, unknown>)) {
      if (/^[a-z_][a-z0-9_]{0,31}$/.test(k) && typeof v === 'string' && v.length <= 256) out.cvars[k] = v;
      else issues.push(`cvars.${k.slice(0, 32)}`);
    }
  } else if (r.cvars !== undefined) issues.push('cvars');

  if (r.window !== undefined) out.window = sanitizeWindowState(r.window);

  if (r.servers !== undefined) {
    const kept = sanitizeSavedServers(r.servers);
    out.servers = kept.servers;
    issues.push(...kept.issues);
  }

  if (Array.isArray(r.history)) {
    out.history = r.history
      .filter((h): h is string => typeof h === 'string' && h.length > 0 && h.length <= 1024)
      .slice(-MAX_HISTORY);
    if (out.history.length !== Math.min(r.history.length, MAX_HISTORY)) issues.push('history');
  } else if (r.history !== undefined) issues.push('history');

  return { settings: out, issues };
}
