/**
 * The one line a newcomer gets when the npm-provided Chromium cannot start on
 * a minimal Linux: which libraries are missing, and how to get them.
 */
import { describe, expect, it } from 'vitest';
import { cannotStartLine, missingFromLdd, NO_BROWSER } from '../../support/browser';

const LDD = `\tlinux-vdso.so.1 (0x00007ffd)
\tlibnss3.so => not found
\tlibdl.so.2 => /lib/x86_64-linux-gnu/libdl.so.2 (0x00007f)
\tlibexpat.so.1 => not found
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f)
`;

describe('the e2e browser diagnosis', () => {
  it('names every library ldd cannot find, and nothing it can', () => {
    expect(missingFromLdd(LDD)).toEqual(['libnss3.so', 'libexpat.so.1']);
    expect(missingFromLdd('\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6\n')).toEqual([]);
  });

  it('says in one line what is missing and that apt-get install chromium brings it', () => {
    const line = cannotStartLine({ source: '@sparticuz/chromium', executablePath: '/x/chromium' }, ['libnss3.so', 'libexpat.so.1']);
    expect(line).not.toContain('\n');
    expect(line).toBe(
      '@sparticuz/chromium Chromium (/x/chromium) cannot start: the system lacks libnss3.so, libexpat.so.1; `apt-get install chromium` (or your system\'s Chromium package) brings every library it needs',
    );
  });

  it('with no browser at all, says how to get one in one line', () => {
    expect(NO_BROWSER).not.toContain('\n');
    expect(NO_BROWSER).toMatch(/CHROMIUM_PATH/);
    expect(NO_BROWSER).toMatch(/npm install/);
  });
});
