/**
 * A gamepad through the Gamepad API's standard mapping: its buttons are
 * inputs of the bindings table (`PadA`, `PadRT`, …: bindings.ts), so `bind`
 * and the settings screen give them any command; its sticks fly the ship —
 * left stick yaw and pitch, right stick roll and thrust — past a dead zone
 * (`joy_deadzone`), pitch inverted with `joy_invert`. Pure over a
 * `navigator.getGamepads`-like source, so tests give it a stand-in.
 */
import { PAD_INPUTS } from '../../../shared/settings/bindings';

/** The standard mapping's buttons by index, as the table names them. */
export const PAD_BUTTONS = PAD_INPUTS;

/** A pressed trigger or button: the analog value from which it counts as down. */
export const PRESSED_AT = 0.5;

/** What this module reads of a Gamepad (the DOM type fits). */
export interface PadLike {
  readonly id: string;
  readonly connected: boolean;
  readonly mapping: string;
  readonly buttons: readonly { readonly pressed: boolean; readonly value: number }[];
  readonly axes: readonly number[];
}

/** The sticks' part of a tick's input, each −1..1 (sim convention: +yaw right, +pitch nose up, +roll right). */
export interface PadAxes {
  yaw: number;
  pitch: number;
  roll: number;
  thrust: number;
}

export interface PadConfig {
  /** Stick travel ignored around the centre, 0..0.9. */
  deadZone: number;
  /** Pull back to dive instead of to climb. */
  invertPitch: boolean;
}

/** One stick axis past the dead zone, rescaled so the edge of the zone is 0 and full travel is ±1. */
export function pastDeadZone(v: number, deadZone: number): number {
  if (!Number.isFinite(v)) return 0;
  const a = Math.abs(v);
  if (a <= deadZone) return 0;
  return Math.sign(v) * Math.min(1, (a - deadZone) / (1 - deadZone));
}

/** The first connected gamepad with the standard mapping, or null. */
export function firstPad(pads: readonly (PadLike | null)[]): PadLike | null {
  return pads.find((p): p is PadLike => p !== null && p.connected && p.mapping === 'standard') ?? null;
}

/** The table names of the buttons `pad` holds down now. */
export function padButtonsDown(pad: PadLike): string[] {
  const out: string[] = [];
  pad.buttons.forEach((b, i) => {
    const name = PAD_BUTTONS[i];
    if (name !== undefined && (b.pressed || b.value >= PRESSED_AT)) out.push(name);
  });
  return out;
}

/**
 * The sticks as flight input: left stick X yaw, Y pitch (pulled back, the
 * API's +Y, climbs; `invertPitch` swaps it), right stick X roll, Y thrust
 * (pushed forward, the API's −Y, is thrust).
 */
export function padAxes(pad: PadLike, config: PadConfig): PadAxes {
  const axis = (i: number) => pastDeadZone(pad.axes[i] ?? 0, config.deadZone);
  const pitch = axis(1);
  return { yaw: axis(0), pitch: config.invertPitch ? -pitch : pitch, roll: axis(2), thrust: -axis(3) };
}

/**
 * Watches for gamepads plugged in and out (the page's `gamepadconnected` /
 * `gamepaddisconnected` events) and says so once each; reads the first
 * standard pad each sample.
 */
export class PadWatch {
  private lastId: string | null = null;

  constructor(
    private readonly source: () => readonly (PadLike | null)[],
    private readonly say: (line: string) => void,
  ) {}

  /** The pad to read this sample, after telling the player of any change. */
  current(): PadLike | null {
    let pad: PadLike | null;
    try {
      pad = firstPad(this.source());
    } catch {
      pad = null; // no Gamepad API here (or it refused): keyboard and mouse only
    }
    const id = pad?.id ?? null;
    if (id !== this.lastId) {
      if (id !== null) this.say(`gamepad connected: ${id.slice(0, 60)} (sticks fly, buttons as bound: bindlist)`);
      else if (this.lastId !== null) this.say('gamepad disconnected');
      this.lastId = id;
    }
    return pad;
  }
}
