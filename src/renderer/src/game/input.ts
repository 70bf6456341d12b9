import type { KeyBindings } from '../../../shared/settings/settings';
import type { ShipInput } from '../../../shared/sim/types';

/**
 * Keyboard and mouse → the local ship's input for the next tick. Keys are
 * read by KeyboardEvent.code through the player's bindings; mouse motion
 * (with pointer lock, after a click on the view) adds yaw and pitch and is
 * consumed once per tick. While `enabled` is false (console open) the game
 * sees no keys and every held key is released.
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

  constructor(
    private bindings: KeyBindings,
    private sensitivity = 1,
  ) {}

  setBindings(bindings: KeyBindings, sensitivity: number): void {
    this.bindings = bindings;
    this.sensitivity = sensitivity;
  }

  attach(target: HTMLElement): () => void {
    const onDown = (e: KeyboardEvent) => {
      if (!this.enabled) return;
      this.down.add(e.code);
      this.tapped.add(e.code);
      if (e.code === this.bindings.target && !e.repeat) this.targetPresses += 1;
      if (Object.values(this.bindings).includes(e.code)) e.preventDefault();
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
      // Left button: laser; right button: missile (while the pointer is captured).
      if (!this.enabled || document.pointerLockElement !== target || (e.button !== 0 && e.button !== 2)) return;
      this.down.add(`Mouse${e.button}`);
      this.tapped.add(`Mouse${e.button}`);
    };
    const onMouseUp = (e: MouseEvent) => this.down.delete(`Mouse${e.button}`);
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

  /** Whether the key bound to `action` is held (the scoreboard shows while its key is). */
  held(action: keyof KeyBindings): boolean {
    return this.down.has(this.bindings[action]);
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
    const b = this.bindings;
    const k = (code: string) => (this.down.has(code) ? 1 : 0);
    const t = (...codes: string[]) => codes.some((c) => this.down.has(c) || this.tapped.has(c));
    const mouseScale = 0.02 * this.sensitivity;
    const clamp = (v: number) => Math.max(-1, Math.min(1, v));
    const input: ShipInput = {
      thrust: k(b.thrust) - k(b.brake),
      yaw: clamp(k(b.yawRight) - k(b.yawLeft) + this.mouseX * mouseScale),
      pitch: clamp(k(b.pitchUp) - k(b.pitchDown) - this.mouseY * mouseScale),
      roll: k(b.rollRight) - k(b.rollLeft),
      fire: t(b.fire, 'Mouse0'),
      afterburner: this.down.has(b.afterburner),
      missile: t(b.missile, 'Mouse2'),
      mine: t(b.mine),
      emp: t(b.emp),
    };
    this.tapped.clear();
    this.mouseX = 0;
    this.mouseY = 0;
    return input;
  }
}
