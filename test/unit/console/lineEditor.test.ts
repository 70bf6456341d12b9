import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyCompletion,
  editLine,
  emptyLine,
  insertText,
  pushHistory,
  renderLine,
} from '../../../src/shared/console/lineEditor';
import type { KeyInput, LineAction, LineState } from '../../../src/shared/console/lineEditor';
import { MAX_LINE_LENGTH } from '../../../src/shared/console/tokenize';
import { colorize, formatForTerminal, sanitizeForTerminal, stripAnsi } from '../../../src/shared/console/colors';

/** Feeds keys (a plain string is typed character by character) and returns the final state and actions. */
function run(keys: Array<KeyInput | string>, history: readonly string[] = [], start: LineState = emptyLine()) {
  let state = start;
  const actions: LineAction[] = [];
  for (const k of keys) {
    const inputs: KeyInput[] = typeof k === 'string' ? [...k].map((c) => ({ key: c })) : [k];
    for (const input of inputs) {
      const r = editLine(state, input, history);
      state = r.state;
      if (r.action.type !== 'none') actions.push(r.action);
    }
  }
  return { state, actions };
}

const key = (k: string, mods: Omit<KeyInput, 'key'> = {}): KeyInput => ({ key: k, ...mods });
const ctrl = (k: string): KeyInput => ({ key: k, ctrl: true });
const at = (text: string, cursor: number): LineState => ({ text, cursor, historyIndex: -1, draft: '' });

describe('typing and moving', () => {
  it('inserts printable characters at the cursor', () => {
    const { state } = run(['sy', key('ArrowLeft'), 'a']);
    expect(state).toMatchObject({ text: 'say', cursor: 2 });
  });

  it('moves with arrows, Home/End and Ctrl-A/Ctrl-E, staying in bounds', () => {
    expect(run([key('ArrowLeft'), key('ArrowLeft')], [], at('ab', 1)).state.cursor).toBe(0);
    expect(run([key('ArrowRight'), key('ArrowRight')], [], at('ab', 1)).state.cursor).toBe(2);
    expect(run([key('Home')], [], at('abc', 2)).state.cursor).toBe(0);
    expect(run([key('End')], [], at('abc', 0)).state.cursor).toBe(3);
    expect(run([ctrl('a')], [], at('abc', 2)).state.cursor).toBe(0);
    expect(run([ctrl('e')], [], at('abc', 0)).state.cursor).toBe(3);
  });

  it('deletes with Backspace and Delete', () => {
    expect(run([key('Backspace')], [], at('abc', 2)).state).toMatchObject({ text: 'ac', cursor: 1 });
    expect(run([key('Delete')], [], at('abc', 1)).state).toMatchObject({ text: 'ac', cursor: 1 });
    expect(run([key('Backspace')], [], at('abc', 0)).state).toMatchObject({ text: 'abc', cursor: 0 });
    expect(run([key('Delete')], [], at('abc', 3)).state).toMatchObject({ text: 'abc', cursor: 3 });
  });

  it('moves and deletes over an emoji as one character', () => {
    const s = at('a😀b', 3);
    expect(run([key('ArrowLeft')], [], s).state.cursor).toBe(1);
    expect(run([key('Backspace')], [], s).state).toMatchObject({ text: 'ab', cursor: 1 });
    expect(run(['😀']).state).toMatchObject({ text: '😀', cursor: 2 });
  });

  it('ignores named keys and unbound modified keys', () => {
    for (const k of [key('Escape'), key('F1'), key('Shift'), key('x', { alt: true }), key('v', { meta: true }), ctrl('z'), key('q', { ctrl: true, alt: true })]) {
      expect(editLine(at('ab', 1), k, [])).toEqual({ state: at('ab', 1), action: { type: 'none' } });
    }
  });

  it('inserts shifted characters', () => {
    expect(run([key('A', { shift: true })]).state.text).toBe('A');
  });
});

describe('kills', () => {
  it('Ctrl-U kills to the start, Ctrl-K to the end', () => {
    expect(run([ctrl('u')], [], at('say hi', 4)).state).toMatchObject({ text: 'hi', cursor: 0 });
    expect(run([ctrl('k')], [], at('say hi', 4)).state).toMatchObject({ text: 'say ', cursor: 4 });
  });

  it('Ctrl-W and Ctrl-Backspace kill the previous word and the spaces after it', () => {
    expect(run([ctrl('w')], [], at('say hello  ', 11)).state).toMatchObject({ text: 'say ', cursor: 4 });
    expect(run([ctrl('w')], [], at('say hello', 6)).state).toMatchObject({ text: 'say llo', cursor: 4 });
    expect(run([ctrl('Backspace')], [], at('a b', 3)).state).toMatchObject({ text: 'a ', cursor: 2 });
  });

  it('Ctrl-Arrow jumps by words', () => {
    expect(run([ctrl('ArrowLeft')], [], at('say hello', 9)).state.cursor).toBe(4);
    expect(run([ctrl('ArrowRight')], [], at('say hello', 0)).state.cursor).toBe(3);
  });
});

describe('history', () => {
  const history = ['first', 'second'];

  it('walks up from the newest and stops at the oldest', () => {
    expect(run([key('ArrowUp')], history).state).toMatchObject({ text: 'second', cursor: 6, historyIndex: 1 });
    expect(run([key('ArrowUp'), key('ArrowUp'), key('ArrowUp')], history).state).toMatchObject({ text: 'first', historyIndex: 0 });
  });

  it('brings the line being typed back after walking down past the newest', () => {
    const { state } = run(['draft', key('ArrowLeft'), key('ArrowUp'), key('ArrowUp'), key('ArrowDown'), key('ArrowDown')], history);
    expect(state).toEqual({ text: 'draft', cursor: 5, historyIndex: -1, draft: '' });
  });

  it('does nothing on ArrowDown while editing a new line, or ArrowUp without history', () => {
    expect(run(['x', key('ArrowDown')], history).state).toMatchObject({ text: 'x', historyIndex: -1 });
    expect(run(['x', key('ArrowUp')]).state).toMatchObject({ text: 'x', historyIndex: -1 });
  });

  it('falls back to the draft when the history shrank under it', () => {
    const start: LineState = { text: 'old', cursor: 3, historyIndex: 5, draft: 'mine' };
    expect(run([key('ArrowDown')], history, start).state).toMatchObject({ text: 'mine', historyIndex: -1 });
  });

  it('pushHistory skips blanks and immediate duplicates and caps the length', () => {
    expect(pushHistory(['a'], '  ')).toEqual(['a']);
    expect(pushHistory(['a'], 'a')).toEqual(['a']);
    expect(pushHistory(['a', 'b'], 'a')).toEqual(['a', 'b', 'a']);
    expect(pushHistory(['a', 'b', 'c'], 'd', 3)).toEqual(['b', 'c', 'd']);
    const h = ['a'];
    pushHistory(h, 'b');
    expect(h).toEqual(['a']);
  });
});

describe('actions', () => {
  it('Enter submits the line and resets the state', () => {
    const { state, actions } = run(['say hi', key('ArrowLeft'), key('Enter')]);
    expect(actions).toEqual([{ type: 'submit', line: 'say hi' }]);
    expect(state).toEqual(emptyLine());
  });

  it('Tab asks to complete the text before the cursor', () => {
    const r = editLine(at('conn host', 4), key('Tab'), []);
    expect(r).toEqual({ state: at('conn host', 4), action: { type: 'complete', line: 'conn' } });
  });

  it('Ctrl-L clears the screen and keeps the line; Ctrl-C cancels and clears it', () => {
    expect(editLine(at('ab', 1), ctrl('l'), [])).toEqual({ state: at('ab', 1), action: { type: 'clear-screen' } });
    expect(editLine(at('ab', 1), ctrl('c'), [])).toEqual({ state: emptyLine(), action: { type: 'cancel' } });
  });

  it('applyCompletion replaces the text before the cursor and keeps the rest', () => {
    expect(applyCompletion(at('conn host', 4), 'connect ')).toMatchObject({ text: 'connect  host', cursor: 8 });
    expect(applyCompletion(at('se', 2), 'sendfreq ')).toMatchObject({ text: 'sendfreq ', cursor: 9 });
  });
});

describe('insertText (paste)', () => {
  it('strips control characters and trailing newlines, turns inner breaks and tabs into spaces', () => {
    expect(insertText(at('say ', 4), 'hi\x1b[31m there\r\n')).toMatchObject({ text: 'say hi[31m there', cursor: 16 });
    expect(insertText(emptyLine(), 'a\nb\tc\x00')).toMatchObject({ text: 'a b c', cursor: 5 });
  });

  it('drops what would pass the line length cap', () => {
    const s = insertText(emptyLine(), 'x'.repeat(MAX_LINE_LENGTH + 50));
    expect(s.text.length).toBe(MAX_LINE_LENGTH);
    expect(run(['y'], [], s).state.text.length).toBe(MAX_LINE_LENGTH);
  });
});

describe('renderLine', () => {
  it('redraws prompt and text and erases the rest of the row', () => {
    expect(renderLine('] ', at('say', 3))).toBe('\r] say\x1b[K');
  });

  it('leaves the cursor mid-line with save/restore cursor', () => {
    expect(renderLine('] ', at('say', 1))).toBe('\r] s\x1b7ay\x1b[K\x1b8');
  });

  it('shows control characters as U+FFFD instead of sending them', () => {
    expect(renderLine('> ', at('a\x1bb', 3))).toBe('\r> a\ufffdb\x1b[K');
  });
});

describe('properties', () => {
  const keyArb: fc.Arbitrary<KeyInput> = fc.record(
    {
      key: fc.oneof(
        fc.constantFrom('Enter', 'Tab', 'Backspace', 'Delete', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'Escape'),
        fc.constantFrom('a', 'w', 'u', 'k', 'l', 'c', 'e', ' ', '😀', '\u0000', '\ud800', '\udc00', 'é'),
        fc.string({ maxLength: 3 }),
      ),
      ctrl: fc.boolean(),
      alt: fc.boolean(),
      meta: fc.boolean(),
      shift: fc.boolean(),
    },
    { requiredKeys: ['key'] },
  );

  it('any key sequence keeps 0 ≤ cursor ≤ text.length and never throws', () => {
    fc.assert(
      fc.property(fc.array(keyArb, { maxLength: 60 }), fc.array(fc.string({ maxLength: 6 }), { maxLength: 4 }), (keys, history) => {
        let state = emptyLine();
        for (const k of keys) {
          state = editLine(state, k, history).state;
          expect(state.cursor).toBeGreaterThanOrEqual(0);
          expect(state.cursor).toBeLessThanOrEqual(state.text.length);
          expect(state.text.length).toBeLessThanOrEqual(MAX_LINE_LENGTH);
          expect(state.historyIndex).toBeGreaterThanOrEqual(-1);
          expect(state.historyIndex).toBeLessThan(Math.max(history.length, 1));
        }
        expect(() => renderLine('] ', state)).not.toThrow();
      }),
    );
  });

  it('typed printable characters never leave control characters in the line', () => {
    fc.assert(
      fc.property(fc.array(keyArb, { maxLength: 40 }), (keys) => {
        const { state } = run(keys);
        expect(state.text).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
      }),
    );
  });

  it('pasted text is clean and inserted at the cursor', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.string({ unit: fc.constantFrom('a', ' ', '\n', '\r', '\t', '\x1b', '\x00', '\x7f', '\x9b', 'é', '😀', '\ud800'), maxLength: 40 }), fc.nat(), (text, paste, c) => {
        const s = insertText(at(text.replace(/[\x00-\x1f\x7f-\x9f]/g, ''), 0), '');
        const start = { ...s, cursor: Math.min(c, s.text.length) };
        const r = insertText(start, paste);
        expect(r.text).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
        expect(r.text.startsWith(start.text.slice(0, start.cursor))).toBe(true);
        expect(r.text.endsWith(start.text.slice(start.cursor))).toBe(true);
      }),
    );
  });
});

describe('colors (renderer output helpers)', () => {
  it('colours by level and leaves info alone', () => {
    expect(colorize('x', 'error')).toBe('\x1b[31mx\x1b[0m');
    expect(colorize('x', 'warn')).toBe('\x1b[33mx\x1b[0m');
    expect(colorize('x', 'echo')).toBe('\x1b[90mx\x1b[0m');
    expect(colorize('x')).toBe('x');
  });

  it('stripAnsi removes CSI, OSC and short escapes', () => {
    expect(stripAnsi('\x1b[31mred\x1b[0m \x1b]0;title\x07ok \x1b]52;c;Zm9v\x1b\\x\x1b7y\x1b(B')).toBe('red ok xy');
    expect(stripAnsi(colorize('plain', 'error'))).toBe('plain');
  });

  it('formatForTerminal sanitizes, colours each line and ends with CRLF', () => {
    expect(formatForTerminal('a\nb\x1b[2J\x07', 'warn')).toBe('\x1b[33ma\x1b[0m\r\n\x1b[33mb\x1b[0m\r\n');
    expect(formatForTerminal('')).toBe('\r\n');
  });

  it('sanitized text never contains ESC or other controls except tab and line breaks', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\x1b', '[', ']', '3', 'm', '\x07', '\\', '\x9b', '\n', '\t', '\x00'), maxLength: 40 }), (s) => {
        expect(sanitizeForTerminal(s)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      }),
    );
  });
});
