/**
 * The host API: the one typed contract between the renderer (game view,
 * console) and the host service in the main process. Two shells carry it —
 * the Electron preload bridge and the browser shell's WebSocket — and both
 * validate every incoming message with {@link parseUpMessage}.
 *
 * The host runs the game (GameDriver, one clock with the network); the page
 * is its view. Traffic is one `frame` message up per rendered frame (the
 * player's input when a tick's worth was sampled) and one `events` batch
 * down per host tick (the tick's world view and whatever else happened).
 */
import type { Settings } from '../settings/settings';
import type { LoopStatsSnapshot } from '../util/stats';
import type { Completion } from '../console/registry';
import type { NetDelivery } from '../net/gameLink';
import { NO_TARGET, type ShipInput } from '../sim/types';
import { MAX_WIRE_SLOTS } from '../wire/types';
import type { GameNotice } from '../game/clientGame';
import type { WorldView } from '../game/view';
import type { MenuState } from '../menu/menuState';
import type { BrowserState } from '../servers/browserState';
import type { CvarInfo } from '../console/cvarInfo';
import type { SoundBatch } from '../game/soundCues';

/**
 * Bumped when a message changes shape; the browser shell refuses other versions.
 * v4: the host runs the game; frames carry the player's input up, `world` events the world down.
 * v5: the menu (`menu` in the snapshot and as events) and the server browser (`servers` events).
 * v6: `sound` events (the sound kind's cues, one batch per host tick while `webaudio` is bound).
 * v7: `world` views carry the hit markers' verdicts (`WorldView.hits`: confirmed or withdrawn by the deciding game).
 * v8: `world` views carry the tick's pickups and the blows on our ship (`WorldView.events`: the pickup sparkle, the damage-direction marker).
 */
export const HOST_CONTRACT_VERSION = 8;

/** Electron IPC channel names, one per message. */
export const HOST_CHANNELS = {
  hello: 'starlane:hello',
  command: 'starlane:command',
  complete: 'starlane:complete',
  frame: 'starlane:frame',
  events: 'starlane:events',
} as const;

/** What the renderer learns at start-up. */
export interface HostSnapshot {
  contractVersion: number;
  appVersion: string;
  shell: 'electron' | 'browser';
  settings: Settings;
  subsystems: Record<string, string | null>;
  /** Console lines printed before this page connected (start-up messages, earlier output), oldest first. */
  consoleBacklog: ConsoleLine[];
  /**
   * The console sequence number this snapshot is current to (see {@link ConsoleLine.seq}).
   * A page shows the backlog, then only console events numbered above this: events the host
   * queued before answering hello can reach the page after the answer, and would repeat lines.
   */
  consoleSeq: number;
  /**
   * The network as it stands, for a page that attaches while a game is on (a reload):
   * the slot table and connection status, then the latest state of each remote ship
   * (age counted up to the snapshot). Applied like `net` events before any of them.
   */
  net: NetDelivery[];
  /** The menu page and dialog showing (the first screen of a start is the main menu). */
  menu: MenuState;
  /** The server browser's table as last refreshed. */
  servers: BrowserState;
  /** Every archived cvar's type, range, default and help (the settings screen's controls; values are in settings.cvars). */
  cvars: CvarInfo[];
}

/** One console line as the host numbers it: `seq` counts every line and clear, from 1, per host run. */
export interface ConsoleLine {
  text: string;
  level: ConsoleLevel;
  seq: number;
}

/** Tab completion answer (the console core's): the line extended by the common prefix, plus every candidate. */
export type { Completion } from '../console/registry';

/** Renderer → main, once per rendered frame. */
export interface FrameUp {
  /** Frame counter since the renderer started. */
  frame: number;
  /** The newest world tick the renderer has drawn. */
  tick: number;
  /** Loop statistics, attached a few times per second (not every frame). */
  stats?: LoopStatsSnapshot;
  /** The player's input, sampled once per 25 ms of the page's clock (absent in frames between samples). */
  input?: ShipInput;
}

export type ConsoleLevel = 'info' | 'warn' | 'error' | 'echo';

/**
 * One point of the net graph, sent about 10 times a second while the
 * `netgraph` cvar is 1. Link figures come from the bound protocol (null: not
 * measured); rates are averaged over the last second of the packet API's
 * traffic (what the protocols sent and received, fake conditions included).
 */
export interface NetGraphSample {
  /** Host clock, ms. */
  at: number;
  pingMs: number | null;
  jitterMs: number | null;
  lossPct: number | null;
  inBytesPerS: number;
  outBytesPerS: number;
  inPacketsPerS: number;
  outPacketsPerS: number;
  /** The link conditioner's settings in words, '' when the link is not conditioned. */
  fake: string;
  /** A lockstep game's or a netgame's figures in one line (starting with the protocol's name), '' otherwise. */
  sync: string;
}

/** Main → renderer notifications, delivered in batches. */
export type HostEvent =
  | ({ kind: 'console' } & ConsoleLine)
  | { kind: 'console-clear'; seq: number }
  | { kind: 'settings'; settings: Settings }
  | { kind: 'subsystems'; bound: Record<string, string | null> }
  | { kind: 'net'; delivery: NetDelivery }
  /** One host tick: the world to draw and what happened (explosions, kills) since the last. */
  | { kind: 'world'; view: WorldView; notices: GameNotice[] }
  /** One host tick's sound (after its `world` event, in the same batch): cues, engine, lock warning, listener. */
  | { kind: 'sound'; batch: SoundBatch }
  | { kind: 'netgraph'; sample: NetGraphSample }
  /** The menu page or dialog changed. */
  | { kind: 'menu'; menu: MenuState }
  /** The server browser's table changed (a refresh under way, pings in, a join refused). */
  | { kind: 'servers'; browser: BrowserState }
  | { kind: 'quit' };

/** The renderer's view of the host, identical in both shells. */
export interface HostApi {
  hello(): Promise<HostSnapshot>;
  /** Runs a console line; output arrives as `console` events. */
  command(line: string): void;
  complete(line: string): Promise<Completion>;
  /** One batch per frame. */
  frame(batch: FrameUp): void;
  /** Subscribes to event batches; returns the unsubscribe function. */
  onEvents(listener: (events: HostEvent[]) => void): () => void;
}

/** Messages on the browser shell's WebSocket (the Electron shell uses one channel per kind). */
export type UpMessage =
  | { t: 'hello'; id: number }
  | { t: 'command'; line: string }
  | { t: 'complete'; id: number; line: string }
  | { t: 'frame'; batch: FrameUp };

export type DownMessage =
  | { t: 'reply'; id: number; ok: true; result: unknown }
  | { t: 'reply'; id: number; ok: false; error: string }
  | { t: 'events'; events: HostEvent[] };

/** Longest console line the host accepts, in characters. */
export const MAX_COMMAND_LENGTH = 1024;

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isFiniteNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Validates a console line from the renderer. */
export function parseCommandLine(raw: unknown): Parsed<string> {
  if (typeof raw !== 'string') return { ok: false, reason: 'command-not-string' };
  if (raw.length > MAX_COMMAND_LENGTH) return { ok: false, reason: 'command-too-long' };
  return { ok: true, value: raw };
}

const STAT_KEYS = ['tickHz', 'fps', 'frameMsP50', 'frameMsP95', 'frameMsP99', 'windowS', 'ticks', 'frames'] as const;

/** Validates a frame batch from the renderer. */
export function parseFrame(raw: unknown): Parsed<FrameUp> {
  if (!isObject(raw)) return { ok: false, reason: 'frame-not-object' };
  if (!isCount(raw.frame) || !isCount(raw.tick)) return { ok: false, reason: 'frame-bad-counter' };
  const out: FrameUp = { frame: raw.frame, tick: raw.tick };
  if (raw.stats !== undefined) {
    const s = raw.stats;
    if (!isObject(s) || !STAT_KEYS.every((k) => isFiniteNum(s[k]))) return { ok: false, reason: 'frame-bad-stats' };
    out.stats = Object.fromEntries(STAT_KEYS.map((k) => [k, s[k] as number])) as unknown as LoopStatsSnapshot;
  }
  if (raw.input !== undefined) {
    const input = parseShipInput(raw.input);
    if (!input) return { ok: false, reason: 'frame-bad-input' };
    out.input = input;
  }
  return { ok: true, value: out };
}

const isAxis = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= -1 && v <= 1;

/** The optional triggers of a ShipInput: absent, or a boolean. */
const TRIGGERS = ['afterburner', 'missile', 'mine', 'emp'] as const;

/**
 * Validates and copies a player's input: four axes in [-1, 1], a boolean
 * trigger, the optional triggers (booleans) and the optional target (an
 * integer slot 0..MAX_WIRE_SLOTS-1, or NO_TARGET); null for anything else.
 * Optional fields that are absent stay absent; unknown fields are dropped.
 */
export function parseShipInput(raw: unknown): ShipInput | null {
  if (!isObject(raw)) return null;
  const { thrust, yaw, pitch, roll, fire, target } = raw;
  if (!isAxis(thrust) || !isAxis(yaw) || !isAxis(pitch) || !isAxis(roll) || typeof fire !== 'boolean') return null;
  const out: ShipInput = { thrust, yaw, pitch, roll, fire };
  for (const key of TRIGGERS) {
    const v = raw[key];
    if (v === undefined) continue;
    if (typeof v !== 'boolean') return null;
    out[key] = v;
  }
  if (target !== undefined) {
    if (!Number.isInteger(target) || (target as number) < NO_TARGET || (target as number) >= MAX_WIRE_SLOTS) return null;
    out.target = target as number;
  }
  return out;
}

/**
 * Validates one WebSocket message from the renderer (already JSON-parsed,
 * untrusted). Returns the message or a drop reason; never throws.
 */
export function parseUpMessage(raw: unknown): Parsed<UpMessage> {
  if (!isObject(raw)) return { ok: false, reason: 'not-object' };
  switch (raw.t) {
    case 'hello':
      return isCount(raw.id) ? { ok: true, value: { t: 'hello', id: raw.id } } : { ok: false, reason: 'bad-id' };
    case 'command': {
      const line = parseCommandLine(raw.line);
      return line.ok ? { ok: true, value: { t: 'command', line: line.value } } : line;
    }
    case 'complete': {
      if (!isCount(raw.id)) return { ok: false, reason: 'bad-id' };
      const line = parseCommandLine(raw.line);
      return line.ok ? { ok: true, value: { t: 'complete', id: raw.id, line: line.value } } : line;
    }
    case 'frame': {
      const batch = parseFrame(raw.batch);
      return batch.ok ? { ok: true, value: { t: 'frame', batch: batch.value } } : batch;
    }
    default:
      return { ok: false, reason: 'unknown-type' };
  }
}
