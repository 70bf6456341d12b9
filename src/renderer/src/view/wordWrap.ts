/**
 * Word wrap for the page's text surfaces: the console (rows of terminal
 * cells) and the net graph (canvas pixels). Lines break between words, never
 * inside one unless a single word is wider than a whole row.
 */

/** Width of `text` in terminal cells: one per character (the console prints ASCII names, em dashes and bullets, all one cell wide). */
export function cellWidth(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Breaks `line` into rows no wider than `width` as `measure` counts it
 * (terminal cells by default, or canvas pixels). A word that does not fit on
 * the row begins the next; the spaces where a row breaks are dropped, runs of
 * spaces inside a row (aligned columns) kept. Continuation rows are indented
 * two more than the line itself, so a reader sees they go on the line above
 * (no extra indent when that would take more than half the row). A word wider
 * than a whole row is cut where the row ends. A line that fits is returned
 * as it is.
 */
export function wrapLine(line: string, width: number, measure: (text: string) => number = cellWidth): string[] {
  if (!(width > 0) || measure(line) <= width) return [line];
  const lead = /^ */.exec(line)?.[0] ?? '';
  const indent = measure(`${lead}  `) <= width / 2 ? `${lead}  ` : '';
  const rows: string[] = [];
  let row = lead;
  let hasWord = false;
  let gap = '';
  for (const token of line.slice(lead.length).match(/ +|[^ ]+/g) ?? []) {
    if (token.startsWith(' ')) {
      gap = token;
      continue;
    }
    const joined = hasWord ? row + gap + token : row + token;
    if (measure(joined) <= width) {
      row = joined;
      hasWord = true;
      continue;
    }
    if (hasWord) {
      rows.push(row);
      row = indent;
    }
    // The word starts a row; cut it while even a row of its own cannot hold it.
    let rest = token;
    while (measure(row + rest) > width) {
      const chars = Array.from(rest);
      let fit = 0;
      while (fit < chars.length && measure(row + chars.slice(0, fit + 1).join('')) <= width) fit++;
      if (fit === 0 && row !== '') {
        // Not even one character after the indent: the indent gives way.
        row = '';
        continue;
      }
      fit = Math.max(1, fit);
      rows.push(row + chars.slice(0, fit).join(''));
      row = indent;
      rest = chars.slice(fit).join('');
    }
    row += rest;
    hasWord = rest !== '';
  }
  if (hasWord || rows.length === 0) rows.push(row);
  return rows;
}
