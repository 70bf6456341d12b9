/**
 * Word wrap of the console and the net graph (src/renderer/src/view/wordWrap.ts):
 * rows break between words, continuation rows are indented, nothing is lost.
 */
import { describe, expect, it } from 'vitest';
import { cellWidth, wrapLine } from '../../../src/renderer/src/view/wordWrap';

/** The words of `rows`, as a reader joins them again. */
const words = (rows: string[]): string[] => rows.join(' ').split(/ +/).filter((w) => w !== '');

describe('wrapLine', () => {
  it('leaves a line that fits as it is, aligned columns and all', () => {
    expect(wrapLine('  bot     offline practice', 40)).toEqual(['  bot     offline practice']);
    expect(wrapLine('', 10)).toEqual(['']);
  });

  it('breaks between words, never inside one, and indents the rows that go on', () => {
    const line = 'unknown command "stast" — did you mean "stats"? Type help for a list';
    const rows = wrapLine(line, 30);
    expect(rows).toEqual(['unknown command "stast" — did', '  you mean "stats"? Type help', '  for a list']);
    for (const r of rows) expect(cellWidth(r)).toBeLessThanOrEqual(30);
    expect(words(rows)).toEqual(words([line]));
  });

  it('keeps a help row\'s indentation on its continuation rows, two deeper', () => {
    const rows = wrapLine('  stats       show tick rate, frame rate, frame-time percentiles and packet counters', 44);
    expect(rows).toEqual(['  stats       show tick rate, frame rate,', '    frame-time percentiles and packet', '    counters']);
  });

  it('cuts only a word wider than a whole row', () => {
    expect(wrapLine('a 0123456789abcdef z', 8)).toEqual(['a', '  012345', '  6789ab', '  cdef z']);
    expect(wrapLine('0123456789', 4)).toEqual(['0123', '  45', '  67', '  89']);
  });

  it('measures with any ruler: canvas pixels for the net graph', () => {
    const px = (t: string) => cellWidth(t) * 6.6;
    const rows = wrapLine('fake link: lag 2000 ms ± 1000 ms, loss 100%, duplicates 100%, reorder 100%', 308, px);
    for (const r of rows) expect(px(r)).toBeLessThanOrEqual(308);
    expect(rows).toEqual(['fake link: lag 2000 ms ± 1000 ms, loss 100%,', '  duplicates 100%, reorder 100%']);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(cellWidth('±●—…')).toBe(4);
  });
});
