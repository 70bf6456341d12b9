import { ACTION_COMMANDS, actionOf, type Action, type BindTable } from '../../../shared/settings/bindings';
import type { ShipInput } from '../../../shared/sim/types';
import { padAxes, padButtonsDown, type PadConfig, type PadLike } from './gamepad';

/** Where a gamepad comes from, and how its sticks are read (the joy_* cvars). */
export interface PadSource {
  current(): PadLike | null;
  config(): PadConfig;
}

/** The table's name for a mouse button (Quake's numbering: 1 left, 2 right, 3 middle). */
export function mouseInput(button: number): string {
  return `Mouse${button === 0 ? 1 : button === 2 ? 2 : button === 1 ? 3 : button + 1}`;
}

/**
 * Keyboard and mouse → the local ship's input for the next tick, through the
 * player's bindings table (bindings.ts): a key (KeyboardEvent.code) or mouse
 * button bound to an action's command drives that action, several inputs may
 * share one, and an input bound to any other command runs it once per press
 * (`onCommand`). Mouse motion (with pointer lock, after a click on the view)
 * adds yaw and pitch and is consumed once per tick. While `enabled` is false
 * (console open) the game sees no keys and every held key is released.
 */
export class InputState {
  private readonly down = new Set<string>();
  /** Keys pressed since the last sample, so a tap shorter than a tick still counts once. */
  private readonly tapped = new Set<string>();
  /** Presses of the target key since the last `takeTargetPresses`. */
  private targetPresses = 0;
  private mouseX = 0;
  private mouseY = 0;
  enabled = true;

  /** Each action's inputs, from the table. */
  private inputs = new Map<Action, string[]>();
  /** Gamepad buttons down at the last sample (their presses count like keys'). */
  private padDown = new Set<string>();
  /** The gamepad, when the page has one. */
  pad: PadSource | null = null;
  /** Mouse forward dives instead of climbing (the `m_invert` cvar). */
  invertMouse = false;

  constructor(
    private table: BindTable,
    private sensitivity = 1,
    /** Runs a bound command that is no flight action (`say gg`, `netgraph 1`). */
    private readonly onCommand: (command: string) => void = () => undefined,
  ) {
    this.setBindings(table, sensitivity);
  }

  setBindings(table: BindTable, sensitivity: number): void {
    this.table = table;
    this.sensitivity = sensitivity;
    this.inputs = new Map((Object.keys(ACTION_COMMANDS) as Action[]).map((a) => [a, Object.keys(table).filter((input) => table[input] === ACTION_COMMANDS[a])]));
  }

  /** Pressing `input`: remembered while held; a target press or another command counted or run once. */
  private press(input: string, repeat: boolean): void {
    this.down.add(input);
    this.tapped.add(input);
    const command = this.table[input];
    if (command === undefined || repeat) return;
    const action = actionOf(command);
    if (action === 'target') this.targetPresses += 1;
    else if (action === undefined) this.onCommand(command);
  }

  attach(target: HTMLElement): () => void {
    const onDown = (e: KeyboardEvent) => {
      if (!this.enabled) return;
      this.press(e.code, e.repeat);
      if (this.table[e.code] !== undefined) e.preventDefault();
    };
    const onUp = (e: KeyboardEvent) => this.down.delete(e.code);
    const onBlur = () => this.down.clear();
    const onMouse = (e: MouseEvent) => {
      if (!this.enabled || document.pointerLockElement !== target) return;
      this.mouseX += e.movementX;
      this.mouseY += e.movementY;
    };
    const onClick = () => {
      if (this.enabled && document.pointerLockElement !== target) target.requestPointerLock?.();
    };
    const onMouseDown = (e: MouseEvent) => {
      // Mouse buttons count while the pointer is captured (by default left fires, right launches a missile).
      if (!this.enabled || document.pointerLockElement !== target) return;
      this.press(mouseInput(e.button), false);
    };
    const onMouseUp = (e: MouseEvent) => this.down.delete(mouseInput(e.button));
    const onContextMenu = (e: Event) => e.preventDefault();
    // One AbortController removes every listener at once on detach.
    const detach = new AbortController();
    const opts = { signal: detach.signal };
    window.addEventListener('keydown', onDown, opts);
    window.addEventListener('keyup', onUp, opts);
    window.addEventListener('blur', onBlur, opts);
    window.addEventListener('mousemove', onMouse, opts);
    window.addEventListener('mousedown', onMouseDown, opts);
    window.addEventListener('mouseup', onMouseUp, opts);
    target.addEventListener('click', onClick, opts);
    target.addEventListener('contextmenu', onContextMenu, opts);
    return () => detach.abort();
  }

  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (!enabled) {
      this.down.clear();
      this.tapped.clear();
      this.targetPresses = 0;
      if (document.pointerLockElement) document.exitPointerLock();
    }
  }

  /** Whether an input bound to `action` is held (the scoreboard shows while its key is). */
  held(action: Action): boolean {
    return (this.inputs.get(action) ?? []).some((i) => this.down.has(i));
  }

  /** Whether an input bound to `action` is held or was pressed since the last sample (a tap shorter than a tick). */
  private tappedOrHeld(action: Action): boolean {
    return (this.inputs.get(action) ?? []).some((i) => this.down.has(i) || this.tapped.has(i));
  }

  /**
   * The gamepad at this sample: buttons pressed since the last one count as
   * presses of their inputs (a bound command runs, a target press counts),
   * released ones are let go; returns the sticks (zero without a pad, or
   * while the console is open).
   */
  private readPad(): { yaw: number; pitch: number; roll: number; thrust: number } {
    const pad = this.enabled ? (this.pad?.current() ?? null) : null;
    const now = new Set(pad ? padButtonsDown(pad) : []);
    for (const b of now) if (!this.padDown.has(b)) this.press(b, false);
    for (const b of this.padDown) if (!now.has(b)) this.down.delete(b);
    this.padDown = now;
    return pad && this.pad ? padAxes(pad, this.pad.config()) : { yaw: 0, pitch: 0, roll: 0, thrust: 0 };
  }

  /** Presses of the target key since the last call. */
  takeTargetPresses(): number {
    const n = this.targetPresses;
    this.targetPresses = 0;
    return n;
  }

  /**
   * The input for one tick (sim convention: +yaw right, +pitch nose up, +roll
   * right), without `target` (the caller's Targeting sets it); consumes mouse
   * motion and the taps since the last sample.
   */
  sample(): ShipInput {
    const sticks = this.readPad();
    const k = (action: Action) => (this.held(action) ? 1 : 0);
    const t = (action: Action) => this.tappedOrHeld(action);
    const mouseScale = 0.02 * this.sensitivity;
    const clamp = (v: number) => Math.max(-1, Math.min(1, v));
    const input: ShipInput = {
      thrust: clamp(k('thrust') - k('brake') + sticks.thrust),
      yaw: clamp(k('yawRight') - k('yawLeft') + this.mouseX * mouseScale + sticks.yaw),
      pitch: clamp(k('pitchUp') - k('pitchDown') + (this.invertMouse ? this.mouseY : -this.mouseY) * mouseScale + sticks.pitch),
      roll: clamp(k('rollRight') - k('rollLeft') + sticks.roll),
      fire: t('fire'),
      afterburner: this.held('afterburner'),
      missile: t('missile'),
      mine: t('mine'),
      emp: t('emp'),
    };
    this.tapped.clear();
    this.mouseX = 0;
    this.mouseY = 0;
    return input;
  }
}
