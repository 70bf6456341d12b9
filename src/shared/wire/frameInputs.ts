/**
 * A pilot's quantised input on the wire, in two forms: `frameInput`, six
 * bytes (thrust, yaw, pitch, roll i8 each −127..127, buttons u8 bits 0..4,
 * target slot), as the netgame's control changes and moves carry it; and the
 * lockstep frame section (`frameInputsSection`, wire v10), where a run of one
 * peer's inputs costs a mask byte each plus only the fields that differ from
 * the input before (the first from a neutral input) — a pilot who holds a key
 * sends one byte per frame.
 *
 * Section layout: frame u8 (the low byte of the sender's frame), first offset
 * i8, count u8 (bits 0..5: 0..32 inputs; bit 6: the sender has no world;
 * bit 7 refused), then per input a mask u8 (bits 0..5 = thrust, yaw, pitch,
 * roll, buttons, target present; bits 6..7 refused) and the present fields,
 * each different from the input before (else refused: one encoding per run).
 */
import { refine, slotOrNone, struct, u8 } from './fields';
import type { Codec } from './fields';
import { fail, refuse } from './stream';
import { MAX_FRAME_INPUTS, NO_SLOT } from './types';
import type { FrameInput, FrameInputs } from './types';

/** A quantised axis: a signed byte −127..127 (−128 is refused, so the range is symmetric). */
const axis: Codec<number> = {
  write(s, v) {
    if (!Number.isInteger(v) || v < -127 || v > 127) refuse(`${String(v)} is not an integer from -127 to 127`);
    s.u8(v & 0xff);
  },
  read(r) {
    const b = r.u8();
    if (b === 0x80) fail('out-of-range');
    return b > 127 ? b - 256 : b;
  },
};
const buttons = refine(u8, (v) => (v > 31 ? `buttons ${v} set bits above the five buttons` : null), 'out-of-range');

/** One input in full: six bytes. */
export const frameInput = struct<FrameInput>({ thrust: axis, yaw: axis, pitch: axis, roll: axis, buttons, target: slotOrNone });

/** The input a run's first entry is told against: no stick, no buttons, no target. */
const NEUTRAL: Readonly<FrameInput> = Object.freeze({ thrust: 0, yaw: 0, pitch: 0, roll: 0, buttons: 0, target: NO_SLOT });
const FIELDS = [
  ['thrust', axis],
  ['yaw', axis],
  ['pitch', axis],
  ['roll', axis],
  ['buttons', buttons],
  ['target', slotOrNone],
] as const satisfies readonly (readonly [keyof FrameInput, Codec<number>])[];
/** Count byte: bit 6 = the sender has no world; bit 7 must be 0. */
const NO_WORLD = 0x40;
/** Mask byte: bits 6 and 7 must be 0. */
const MASK_FIELDS = (1 << FIELDS.length) - 1;

/** A signed byte −128..127 (a frame offset). */
const i8: Codec<number> = {
  write(s, v) {
    if (!Number.isInteger(v) || v < -128 || v > 127) refuse(`${String(v)} is not an integer from -128 to 127`);
    s.u8(v & 0xff);
  },
  read(r) {
    const b = r.u8();
    return b > 127 ? b - 256 : b;
  },
};

/** The lockstep frame section: the sender's frame (low byte) and its inputs, each told against the one before. */
export const frameInputsSection: Codec<FrameInputs> = {
  write(s, v) {
    if (typeof v !== 'object' || v === null || !Array.isArray(v.inputs)) refuse(`${String(v)} is not a frame section`);
    u8.write(s, v.frame);
    i8.write(s, v.firstOffset);
    if (v.inputs.length > MAX_FRAME_INPUTS) refuse(`${v.inputs.length} inputs, more than ${MAX_FRAME_INPUTS}`);
    s.u8(v.inputs.length | (v.noWorld ? NO_WORLD : 0));
    let before: FrameInput = NEUTRAL;
    for (const input of v.inputs) {
      if (typeof input !== 'object' || input === null) refuse(`${String(input)} is not an input`);
      let mask = 0;
      FIELDS.forEach(([key], i) => {
        if (input[key] !== before[key]) mask |= 1 << i;
      });
      s.u8(mask);
      FIELDS.forEach(([key, codec], i) => {
        if ((mask & (1 << i)) !== 0) codec.write(s, input[key]);
      });
      before = input;
    }
  },
  read(r) {
    const frame = r.u8();
    const firstOffset = i8.read(r);
    const c = r.u8();
    if ((c & 0x80) !== 0) fail('bad-flags');
    const count = c & 0x3f;
    if (count > MAX_FRAME_INPUTS) fail('bad-list');
    const inputs: FrameInput[] = [];
    let before: FrameInput = NEUTRAL;
    for (let n = 0; n < count; n++) {
      const mask = r.u8();
      if ((mask & ~MASK_FIELDS) !== 0) fail('bad-flags');
      const input = { ...before };
      FIELDS.forEach(([key, codec], i) => {
        if ((mask & (1 << i)) === 0) return;
        input[key] = codec.read(r);
        // One encoding per run: a field marked as changed must have changed.
        if (input[key] === before[key]) fail('bad-flags');
      });
      inputs.push(input);
      before = input;
    }
    return { frame, firstOffset, noWorld: (c & NO_WORLD) !== 0, inputs };
  },
};
