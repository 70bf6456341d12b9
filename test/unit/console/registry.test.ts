import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { OutputLevel } from '../../../src/shared/console/colors';
import { ConsoleCore, usageLine } from '../../../src/shared/console/registry';
import type { ConsoleOutput } from '../../../src/shared/console/registry';
import { MAX_LINE_LENGTH } from '../../../src/shared/console/tokenize';

/** Collects printed lines as `level: text`. */
function capture(): ConsoleOutput & { lines: string[]; texts(): string[] } {
  const lines: string[] = [];
  return {
    lines,
    print(text: string, level: OutputLevel = 'info') {
      lines.push(`${level}: ${text}`);
    },
    texts: () => lines.map((l) => l.replace(/^\w+: /, '')),
  };
}

function setup(): { core: ConsoleCore; out: ReturnType<typeof capture>; ran: string[][] } {
  const core = new ConsoleCore();
  const out = capture();
  const ran: string[][] = [];
  core.addCommand({ name: 'echo', help: 'print the arguments', usage: '<text…>', run: (args, o) => o.print(args.join(' ')) });
  core.addCommand({
    name: 'connect',
    help: 'connect to a server',
    usage: '<host>',
    args: { min: 1, max: 1 },
    complete: (_args, i) => (i === 0 ? ['localhost', 'lan-server', 'my server'] : []),
    run: (args) => void ran.push(args),
  });
  core.addCvar({ name: 'sendfreq', type: 'int', default: 20, min: 5, max: 60, help: 'packets per second' });
  core.addCvar({ name: 'cl_showfps', type: 'bool', default: false, help: 'show frame rate' });
  core.addCvar({ name: 'r_quality', type: 'string', default: 'medium', allowed: ['low', 'medium', 'high'], help: 'render quality' });
  return { core, out, ran };
}

describe('ConsoleCore.execute', () => {
  it('dispatches to the command with the arguments after its name', async () => {
    const { core, out, ran } = setup();
    await core.execute('connect "my host"', out);
    expect(ran).toEqual([['my host']]);
    await core.execute('ECHO a  b', out);
    expect(out.lines).toEqual(['info: a b']);
  });

  it('ignores empty and comment-only lines', async () => {
    const { core, out } = setup();
    await core.execute('', out);
    await core.execute('   // nothing', out);
    expect(out.lines).toEqual([]);
  });

  it('refuses over-long lines with one line', async () => {
    const { core, out, ran } = setup();
    await core.execute('connect ' + 'x'.repeat(MAX_LINE_LENGTH), out);
    expect(ran).toEqual([]);
    expect(out.lines).toEqual([`error: line too long (${MAX_LINE_LENGTH + 8} characters, limit ${MAX_LINE_LENGTH})`]);
  });

  it('runs ; chains in order, awaiting async commands', async () => {
    const { core, out } = setup();
    core.addCommand({ name: 'slow', help: '', run: async (_a, o) => { await new Promise((r) => setTimeout(r, 5)); o.print('slow'); } });
    await core.execute('slow; echo after', out);
    expect(out.texts()).toEqual(['slow', 'after']);
  });

  it('says unknown command, suggesting a close name', async () => {
    const { core, out } = setup();
    await core.execute('frobnicate', out);
    await core.execute('conect x', out);
    await core.execute('hlep', out);
    expect(out.lines).toEqual([
      'error: unknown command "frobnicate" — type help for a list',
      'error: unknown command "conect" — did you mean "connect"? Type help for a list',
      'error: unknown command "hlep" — did you mean "help"? Type help for a list',
    ]);
  });

  it('prints the usage line on a wrong argument count and does not run', async () => {
    const { core, out, ran } = setup();
    await core.execute('connect', out);
    await core.execute('connect a b', out);
    expect(ran).toEqual([]);
    expect(out.lines).toEqual(['warn: usage: connect <host>', 'warn: usage: connect <host>']);
  });

  it('turns a throwing or rejecting command into one error line and carries on', async () => {
    const { core, out } = setup();
    core.addCommand({ name: 'bad', help: '', run: () => { throw new Error('socket closed\nstack…'); } });
    core.addCommand({ name: 'worse', help: '', run: () => Promise.reject('no route') });
    await expect(core.execute('bad; worse; echo still here', out)).resolves.toBeUndefined();
    expect(out.lines).toEqual(['error: bad: socket closed', 'error: worse: no route', 'info: still here']);
  });

  it('never rejects even when the output itself throws', async () => {
    const { core } = setup();
    const out: ConsoleOutput = { print: () => { throw new Error('closed'); } };
    await expect(core.execute('nope', out)).resolves.toBeUndefined();
  });

  it('passes lines with an unknown first word to the fallback', async () => {
    const { core, out } = setup();
    const fallback = vi.fn();
    core.fallback = fallback;
    await core.execute('hello there; echo x', out);
    expect(fallback).toHaveBeenCalledWith('hello there', ['hello', 'there'], out);
    expect(out.texts()).toEqual(['x']);
  });

  it('treats /name as an explicit command that never reaches the fallback', async () => {
    const { core, out, ran } = setup();
    const fallback = vi.fn();
    core.fallback = fallback;
    await core.execute('/connect host; /nope', out);
    expect(ran).toEqual([['host']]);
    expect(fallback).not.toHaveBeenCalled();
    expect(out.lines).toEqual(['error: unknown command "nope" — type help for a list']);
  });

  it('turns a throwing fallback into one error line', async () => {
    const core = new ConsoleCore({ fallback: () => { throw new Error('not connected'); } });
    const out = capture();
    await core.execute('hi', out);
    expect(out.lines).toEqual(['error: not connected']);
  });
});

describe('cvars in the console', () => {
  it('prints name, value, default, range and help for the bare name', async () => {
    const { core, out } = setup();
    await core.execute('sendfreq', out);
    expect(out.lines).toEqual(['info: sendfreq is "20" (default "20", range 5 to 60) — packets per second']);
  });

  it('sets with range checks and prints the new value or the error', async () => {
    const { core, out } = setup();
    await core.execute('sendfreq 30; sendfreq 99; cl_showfps on', out);
    expect(out.lines).toEqual([
      'info: sendfreq set to "30"',
      'error: sendfreq must be an integer from 5 to 60 (got 99)',
      'info: cl_showfps set to "1"',
    ]);
    expect(core.cvar('SENDFREQ')?.value).toBe(30);
  });

  it('refuses read-only cvars', async () => {
    const { core, out } = setup();
    core.addCvar({ name: 'version', type: 'string', default: '0.1', help: '', flags: { readOnly: true } });
    await core.execute('version 2', out);
    expect(out.lines).toEqual(['error: version is read-only']);
  });

  it('reports a throwing change listener as one line, keeping the value', async () => {
    const { core, out } = setup();
    core.cvar('sendfreq')?.onChange(() => { throw new Error('net down'); });
    await core.execute('sendfreq 10', out);
    expect(out.lines).toEqual(['error: sendfreq: net down']);
    expect(core.cvar('sendfreq')?.value).toBe(10);
  });

  it('removes a cvar by name or by disposing the handle', () => {
    const { core } = setup();
    const c = core.addCvar({ name: 'tmp', type: 'int', default: 0, help: '' });
    c.dispose();
    expect(core.cvar('tmp')).toBeUndefined();
    core.addCvar({ name: 'tmp', type: 'int', default: 0, help: '' });
    expect(core.removeCvar('tmp')).toBe(true);
    expect(core.removeCvar('tmp')).toBe(false);
  });
});

describe('registration', () => {
  it('throws when a name is already a command or a cvar (any case)', () => {
    const { core } = setup();
    expect(() => core.addCommand({ name: 'Echo', help: '', run: () => {} })).toThrow(/already registered/);
    expect(() => core.addCvar({ name: 'connect', type: 'int', default: 0, help: '' })).toThrow(/already registered/);
    expect(() => core.addCommand({ name: 'bad name', help: '', run: () => {} })).toThrow(/invalid/);
  });

  it('lets commands add and remove commands while a line runs', async () => {
    const { core, out } = setup();
    let removeEcho: (() => void) | undefined;
    core.addCommand({
      name: 'swap',
      help: '',
      run: () => {
        core.removeCommand('echo');
        removeEcho = core.addCommand({ name: 'late', help: '', run: (_a, o) => o.print('late ran') });
      },
    });
    await core.execute('swap; echo gone; late', out);
    expect(out.lines).toEqual(['error: unknown command "echo" — type help for a list', 'info: late ran']);
    removeEcho?.();
    expect(core.command('late')).toBeUndefined();
  });

  it('a stale remover does not remove a newer command of the same name', () => {
    const core = new ConsoleCore();
    const remove = core.addCommand({ name: 'x', help: 'old', run: () => {} });
    remove();
    core.addCommand({ name: 'x', help: 'new', run: () => {} });
    remove();
    expect(core.command('x')?.help).toBe('new');
  });

  it('lists commands and cvars sorted by name', () => {
    const { core } = setup();
    expect(core.commands().map((c) => c.name)).toEqual(['connect', 'echo', 'help']);
    expect(core.cvars().map((c) => c.name)).toEqual(['cl_showfps', 'r_quality', 'sendfreq']);
  });
});

describe('help', () => {
  it('lists every command and cvar with its help, sorted and aligned', async () => {
    const { core, out } = setup();
    await core.execute('help', out);
    expect(out.texts()).toEqual([
      'commands:',
      '  connect     connect to a server',
      '  echo        print the arguments',
      '  help        list commands and cvars, or describe one',
      'cvars:',
      '  cl_showfps  show frame rate',
      '  r_quality   render quality',
      '  sendfreq    packets per second',
    ]);
  });

  it('ends with the lines the host gives it (helpFooter), after the cvars', async () => {
    const { core, out } = setup();
    core.helpFooter = ['keys: type keys for the controls'];
    await core.execute('help', out);
    expect(out.texts().slice(-2)).toEqual(['  sendfreq    packets per second', 'keys: type keys for the controls']);
  });

  it('gives usage and help of one command or cvar', async () => {
    const { core, out } = setup();
    await core.execute('help connect; help sendfreq', out);
    expect(out.texts()).toEqual([
      'usage: connect <host>',
      '  connect to a server',
      'sendfreq is "20" (default "20", range 5 to 60) — packets per second',
      'usage: sendfreq [value]',
    ]);
  });

  it('help connect names the command once, even when its synopsis was written with the name', async () => {
    const core = new ConsoleCore();
    const out = capture();
    core.addCommand({ name: 'connect', help: 'join a game', usage: 'connect [host[:port]]', args: { max: 1 }, run: () => undefined });
    core.addCommand({ name: 'name', help: 'show or set your name', usage: 'NAME [new name]', run: () => undefined });
    await core.execute('help connect; connect a b; help name', out);
    expect(out.texts()).toEqual(['usage: connect [host[:port]]', '  join a game', 'usage: connect [host[:port]]', 'usage: name [new name]', '  show or set your name']);
  });

  it('says so clearly for an unknown name', async () => {
    const { core, out } = setup();
    await core.execute('help conect', out);
    expect(out.lines).toEqual(['error: no command or cvar named "conect" — did you mean "connect"?']);
  });
});

describe('ConsoleCore.complete', () => {
  it('completes a unique command or cvar name with a trailing space', () => {
    const { core } = setup();
    expect(core.complete('con')).toEqual({ line: 'connect ', candidates: ['connect'] });
    expect(core.complete('SEN')).toEqual({ line: 'sendfreq ', candidates: ['sendfreq'] });
    expect(core.complete('/ec')).toEqual({ line: '/echo ', candidates: ['echo'] });
  });

  it('extends to the common prefix and lists all candidates', () => {
    const { core } = setup();
    core.addCommand({ name: 'connect_lan', help: '', run: () => {} });
    expect(core.complete('c')).toEqual({ line: 'c', candidates: ['cl_showfps', 'connect', 'connect_lan'] });
    expect(core.complete('co')).toEqual({ line: 'connect', candidates: ['connect', 'connect_lan'] });
    expect(core.complete('')).toMatchObject({ line: '' });
    expect(core.complete('').candidates).toHaveLength(7);
  });

  it('returns the line unchanged when nothing matches', () => {
    const { core } = setup();
    expect(core.complete('zz')).toEqual({ line: 'zz', candidates: [] });
    expect(core.complete('echo hi // com')).toEqual({ line: 'echo hi // com', candidates: [] });
  });

  it('completes arguments through the command and quotes words with spaces', () => {
    const { core } = setup();
    expect(core.complete('connect l')).toEqual({ line: 'connect l', candidates: ['lan-server', 'localhost'] });
    expect(core.complete('connect lo')).toEqual({ line: 'connect localhost ', candidates: ['localhost'] });
    expect(core.complete('connect my')).toEqual({ line: 'connect "my server" ', candidates: ['my server'] });
    expect(core.complete('connect "my s')).toEqual({ line: 'connect "my server" ', candidates: ['my server'] });
    expect(core.complete('connect x y')).toEqual({ line: 'connect x y', candidates: [] });
  });

  it('completes cvar values: allowed strings and 0/1 for bools', () => {
    const { core } = setup();
    expect(core.complete('r_quality h')).toEqual({ line: 'r_quality high ', candidates: ['high'] });
    expect(core.complete('cl_showfps ')).toEqual({ line: 'cl_showfps ', candidates: ['0', '1'] });
    expect(core.complete('sendfreq ')).toEqual({ line: 'sendfreq ', candidates: [] });
  });

  it('completes within the last command of a ; chain', () => {
    const { core } = setup();
    expect(core.complete('echo a; sen')).toEqual({ line: 'echo a; sendfreq ', candidates: ['sendfreq'] });
    expect(core.complete('help con')).toEqual({ line: 'help connect ', candidates: ['connect'] });
  });

  it('survives a throwing complete hook', () => {
    const { core } = setup();
    core.addCommand({ name: 'boom', help: '', complete: () => { throw new Error('x'); }, run: () => {} });
    expect(core.complete('boom a')).toEqual({ line: 'boom a', candidates: [] });
  });
});

describe('robustness', () => {
  const unit = fc.constantFrom('c', 'o', 'n', 'e', 's', ' ', '"', ';', '/', '\\', 'h', '\n');

  it('complete never throws, returns sorted candidates, and leaves the line alone when none match', () => {
    const { core } = setup();
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), (line) => {
        const r = core.complete(line);
        expect([...r.candidates].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))).toEqual(r.candidates);
        if (r.candidates.length === 0) expect(r.line).toBe(line);
      }),
    );
  });

  it('execute never rejects on any input', async () => {
    const { core } = setup();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit, maxLength: 30 }), async (line) => {
        await expect(core.execute(line, capture())).resolves.toBeUndefined();
      }),
    );
  });
});

describe('usageLine', () => {
  it('puts the name before the synopsis once', () => {
    expect(usageLine({ name: 'connect', usage: '[host[:port] | n]' })).toBe('usage: connect [host[:port] | n]');
    expect(usageLine({ name: 'connect', usage: 'connect [host[:port] | n]' })).toBe('usage: connect [host[:port] | n]');
    expect(usageLine({ name: 'clear' })).toBe('usage: clear');
    expect(usageLine({ name: 'say', usage: 'say' })).toBe('usage: say');
    // A synopsis whose first word merely starts like the name keeps it.
    expect(usageLine({ name: 'name', usage: 'names…' })).toBe('usage: name names…');
  });
});
