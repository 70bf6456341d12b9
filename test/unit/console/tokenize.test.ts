import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LINE_LENGTH, quoteArgument, splitCommandSegments, splitCommands, tokenize, tokenizeDetailed } from '../../../src/shared/console/tokenize';

describe('tokenize', () => {
  it('splits on runs of spaces, tabs and control characters', () => {
    expect(tokenize('  connect   host\t27960 ')).toEqual(['connect', 'host', '27960']);
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' \t\x01 ')).toEqual([]);
  });

  it('groups words in double quotes into one argument', () => {
    expect(tokenize('say "hello world"')).toEqual(['say', 'hello world']);
    expect(tokenize('say "  padded  "')).toEqual(['say', '  padded  ']);
  });

  it('keeps a closed empty quote as an empty argument', () => {
    expect(tokenize('name ""')).toEqual(['name', '']);
  });

  it('reads \\" and \\\\ inside quotes as a quote and a backslash, other backslashes literally', () => {
    expect(tokenize('say "he said \\"hi\\""')).toEqual(['say', 'he said "hi"']);
    expect(tokenize('exec "C:\\maps\\\\"')).toEqual(['exec', 'C:\\maps\\']);
    expect(tokenize('path C:\\x\\y')).toEqual(['path', 'C:\\x\\y']);
  });

  it('lets an unterminated quote take the rest of the line', () => {
    expect(tokenize('say "hello there  ')).toEqual(['say', 'hello there  ']);
    expect(tokenize('say "')).toEqual(['say']);
  });

  it('ends a bare word at a quote, as Quake does', () => {
    expect(tokenize('a"b c"d')).toEqual(['a', 'b c', 'd']);
  });

  it('treats // outside quotes as the start of a comment', () => {
    expect(tokenize('say hi // greeting')).toEqual(['say', 'hi']);
    expect(tokenize('say hi//there')).toEqual(['say', 'hi']);
    expect(tokenize('// only a comment')).toEqual([]);
    expect(tokenize('say "http://x" // c')).toEqual(['say', 'http://x']);
    expect(tokenizeDetailed('a // b').comment).toBe(true);
  });

  it('reports token positions for completion', () => {
    const { tokens } = tokenizeDetailed('map "my map');
    expect(tokens).toEqual([
      { text: 'map', start: 0, end: 3, quoted: false, closed: true },
      { text: 'my map', start: 4, end: 11, quoted: true, closed: false },
    ]);
  });

  it('never throws and only yields an empty word for a quoted ""', () => {
    const unit = fc.constantFrom('a', 'b', ' ', '\t', '"', '\\', '/', ';', '\n', 'é', '\u0000');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 80 }), (line) => {
        const words = tokenize(line);
        if (words.includes('')) expect(line).toContain('""');
        for (const w of words) expect(w.length).toBeLessThanOrEqual(line.length);
      }),
    );
  });

  it('tokens without quotes round-trip through spaces', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'z', '1', '.', '-'), minLength: 1, maxLength: 8 });
    fc.assert(fc.property(fc.array(word, { maxLength: 10 }), (words) => {
      expect(tokenize(words.join(' '))).toEqual(words);
    }));
  });
});

describe('splitCommands', () => {
  it('splits on ; outside quotes and trims each command', () => {
    expect(splitCommands('name a; say hi')).toEqual(['name a', 'say hi']);
    expect(splitCommands('say "a;b"; quit')).toEqual(['say "a;b"', 'quit']);
  });

  it('drops blank commands', () => {
    expect(splitCommands(';; a ;  ; b;')).toEqual(['a', 'b']);
    expect(splitCommands('')).toEqual([]);
  });

  it('does not end a quote at an escaped quote', () => {
    expect(splitCommands('say "x\\";y"; b')).toEqual(['say "x\\";y"', 'b']);
  });

  it('splits on line breaks, which also close an open quote', () => {
    expect(splitCommands('a\nb\r\nc')).toEqual(['a', 'b', 'c']);
    expect(splitCommands('say "open\nquit')).toEqual(['say "open', 'quit']);
  });

  it('ignores ; inside a // comment and resumes after the line break', () => {
    expect(splitCommands('a // b; c\nd')).toEqual(['a', 'd']);
  });

  it('keeps trailing spaces that belong to an unclosed quote', () => {
    expect(splitCommands('say "hi  ')).toEqual(['say "hi  ']);
  });

  it('reports segment offsets and comments', () => {
    expect(splitCommandSegments('a; b // c')).toEqual([
      { text: 'a', start: 0, comment: false, openQuote: false },
      { text: ' b ', start: 2, comment: true, openQuote: false },
    ]);
  });

  it('agrees with tokenize on what is quoted', () => {
    const unit = fc.constantFrom('a', ' ', '"', '\\', ';', '/');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), (line) => {
        // Every ; that tokenize kept inside a word must have been inside quotes for the splitter too.
        for (const cmd of splitCommands(line)) {
          for (const t of tokenizeDetailed(cmd).tokens) if (!t.quoted) expect(t.text).not.toContain(';');
        }
      }),
    );
  });
});

describe('quoteArgument', () => {
  it('leaves plain words alone and quotes the rest', () => {
    expect(quoteArgument('localhost')).toBe('localhost');
    expect(quoteArgument('my map')).toBe('"my map"');
    expect(quoteArgument('')).toBe('""');
    expect(quoteArgument('a"b\\')).toBe('"a\\"b\\\\"');
    expect(quoteArgument('my m', { close: false })).toBe('"my m');
  });

  it('reads back as the same single word, also inside a ; chain', () => {
    const unit = fc.constantFrom('a', ' ', '"', '\\', ';', '/', '\t', 'é', '\u0001');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 20 }), (word) => {
        expect(tokenize(quoteArgument(word))).toEqual([word]);
        const cmds = splitCommands(`say ${quoteArgument(word)}; next`);
        expect(cmds.map(tokenize)).toEqual([['say', word], ['next']]);
      }),
    );
  });
});

describe('bounded work', () => {
  const nasty = [
    '"'.repeat(MAX_LINE_LENGTH),
    '\\'.repeat(MAX_LINE_LENGTH),
    '"' + '\\"'.repeat(MAX_LINE_LENGTH / 2 - 1) + 'x',
    '/'.repeat(MAX_LINE_LENGTH),
    ' '.repeat(MAX_LINE_LENGTH - 1) + 'x',
    ';'.repeat(MAX_LINE_LENGTH),
    'a '.repeat(MAX_LINE_LENGTH / 2),
  ];

  it('handles 1024-character lines of any shape quickly', () => {
    // A seeded generator instead of fc.sample: generating 1024-character strings with
    // fast-check takes longer than tokenizing them, which would blur what is measured.
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const special = ' \t\n";\\/';
    const randomLine = (): string =>
      Array.from({ length: MAX_LINE_LENGTH }, () => (rand(2) ? special[rand(special.length)] : String.fromCharCode(rand(0x10000)))).join('');
    const lines = [...nasty, ...Array.from({ length: 200 }, randomLine)];
    const t0 = performance.now();
    for (const line of lines) {
      const words = tokenize(line);
      const cmds = splitCommands(line);
      expect(words.join('').length).toBeLessThanOrEqual(line.length);
      expect(cmds.length).toBeLessThanOrEqual(line.length);
    }
    // Linear scans: ~200 KiB of input takes milliseconds; the bound only catches quadratic blow-ups.
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});
