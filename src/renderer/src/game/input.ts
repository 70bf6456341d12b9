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
      if (this.enabled && e.button === 0 && document.pointerLockElement === target) this.down.add('Mouse0');
    };
    const onMouseUp = (e: MouseEvent) => {
      if (e.button === 0) this.down.delete('Mouse0');
    };
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
    return () => detach.abort();
  }

  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (!enabled) {
      this.down.clear();
      if (document.pointerLockElement) document.exitPointerLock();
    }
  }

  /** The input for one tick (sim convention: +yaw right, +pitch nose up, +roll right); consumes mouse motion. */
  sample(): ShipInput {
    const b = this.bindings;
    const k = (code: string) => (this.down.has(code) ? 1 : 0);
    const mouseScale = 0.02 * this.sensitivity;
    const clamp = (v: number) => Math.max(-1, Math.min(1, v));
    const input: ShipInput = {
      thrust: k(b.thrust) - k(b.brake),
      yaw: clamp(k(b.yawRight) - k(b.yawLeft) + this.mouseX * mouseScale),
      pitch: clamp(k(b.pitchUp) - k(b.pitchDown) - this.mouseY * mouseScale),
      roll: k(b.rollRight) - k(b.rollLeft),
      fire: this.down.has(b.fire) || this.down.has('Mouse0'),
    };
    this.mouseX = 0;
    this.mouseY = 0;
    return input;
  }
}
