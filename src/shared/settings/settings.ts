/**
 * Player settings: what Starlane remembers between runs. Pure data and
 * validation; the host stores it (src/node/settings/store.ts).
 */

/** Key bindings: action → KeyboardEvent.code. */
export interface KeyBindings {
  thrust: string;
  brake: string;
  yawLeft: string;
  yawRight: string;
  pitchUp: string;
  pitchDown: string;
  rollLeft: string;
  rollRight: string;
  fire: string;
  afterburner: string;
  missile: string;
  mine: string;
  emp: string;
  /** Target the next other ship (for homing missiles). */
  target: string;
  /** Show the scoreboard while held. */
  scoreboard: string;
  console: string;
}

export interface Settings {
  /** Settings file layout version; bumped when a field changes meaning. */
  version: 1;
  playerName: string;
  bindings: KeyBindings;
  /** Packet API bound at start-up (`udp` or `udp6`). */
  packetApi: string;
  /** Archived console variables by name, as text (the host writes every archived cvar here). */
  cvars: Record<string, string>;
  /** Console history, newest last. */
  history: string[];
}

export const MAX_HISTORY = 200;
export const PLAYER_NAME_MAX = 16;

export function defaultBindings(): KeyBindings {
  return {
    thrust: 'KeyW',
    brake: 'KeyS',
    yawLeft: 'KeyA',
    yawRight: 'KeyD',
    pitchUp: 'ArrowDown',
    pitchDown: 'ArrowUp',
    rollLeft: 'KeyQ',
    rollRight: 'KeyE',
    fire: 'Space',
    afterburner: 'ShiftLeft',
    missile: 'KeyF',
    mine: 'KeyG',
    // Not KeyE: that rolls right.
    emp: 'KeyR',
    target: 'KeyT',
    scoreboard: 'Tab',
    console: 'Backquote',
  };
}

export function defaultSettings(): Settings {
  return {
    version: 1,
    playerName: 'pilot',
    bindings: defaultBindings(),
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

/**
 * Checks a player name: 1..16 printable ASCII characters (space allowed
 * inside, not at either end). Returns the trimmed name or one clear reason.
 */
export function validatePlayerName(raw: string): { ok: true; name: string } | { ok: false; error: string } {
  const name = raw.trim();
  if (name.length === 0) return { ok: false, error: 'a name needs at least one character' };
  if (name.length > PLAYER_NAME_MAX) {
    return { ok: false, error: `a name may have at most ${PLAYER_NAME_MAX} characters (got ${name.length})` };
  }
  if (!/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(name)) {
    return { ok: false, error: 'a name may only use printable ASCII characters' };
  }
  return { ok: true, name };
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

  if (typeof r.bindings === 'object' && r.bindings !== null) {
    const b = r.bindings as Record<string, unknown>;
    for (const key of Object.keys(d.bindings) as (keyof KeyBindings)[]) {
      const v = b[key];
      if (typeof v === 'string' && /^[A-Za-z0-9]{1,32}$/.test(v)) out.bindings[key] = v;
      else if (v !== undefined) issues.push(`bindings.${key}`);
    }
  } else if (r.bindings !== undefined) issues.push('bindings');

  if (r.packetApi === 'udp' || r.packetApi === 'udp6') out.packetApi = r.packetApi;
  else if (r.packetApi !== undefined) issues.push('packetApi');

  if (typeof r.cvars === 'object' && r.cvars !== null && !Array.isArray(r.cvars)) {
    for (const [k, v] of Object.entries(r.cvars as Record<string, unknown>)) {
      if (/^[a-z_][a-z0-9_]{0,31}$/.test(k) && typeof v === 'string' && v.length <= 256) out.cvars[k] = v;
      else issues.push(`cvars.${k.slice(0, 32)}`);
    }
  } else if (r.cvars !== undefined) issues.push('cvars');

  if (Array.isArray(r.history)) {
    out.history = r.history
      .filter((h): h is string => typeof h === 'string' && h.length > 0 && h.length <= 1024)
      .slice(-MAX_HISTORY);
    if (out.history.length !== Math.min(r.history.length, MAX_HISTORY)) issues.push('history');
  } else if (r.history !== undefined) issues.push('history');

  return { settings: out, issues };
}
