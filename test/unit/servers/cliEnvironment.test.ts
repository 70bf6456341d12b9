/**
 * Server options from the environment (src/node/servers/cliEnvironment.ts):
 * each option's variable is STARLANE_ and its long name in upper snake case,
 * the command line wins over it and it over the default, help names it, and a
 * bad value is refused naming the variable.
 */
import { Command, CommanderError, Option } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { envName, optionsFromEnvironment } from '../../../src/node/servers/cliEnvironment';
import { int } from '../../../src/node/servers/cliOptions';

const saved = new Map<string, string | undefined>();
function setEnv(vars: Record<string, string>): void {
  for (const [k, v] of Object.entries(vars)) {
    if (!saved.has(k)) saved.set(k, process.env[k]);
    process.env[k] = v;
  }
}
afterEach(() => {
  for (const [k, v] of saved) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  saved.clear();
});

/** A server-like command whose options come from the environment too; its errors are thrown, its output kept. */
function command() {
  const out: string[] = [];
  const cmd = optionsFromEnvironment(new Command('gameserver'))
    .exitOverride()
    .configureOutput({ writeOut: (s) => out.push(s), writeErr: (s) => out.push(s) })
    .option('--max-players <n>', 'seats', int(1, 255), 64)
    .option('--universe-key <file>', 'key file')
    .option('--agones', 'run under Agones')
    .addOption(new Option('--log-level <level>', 'log level').choices(['info', 'warn']).default('info'))
    .addOption(new Option('--own <x>', 'has its own variable').env('OWN_VARIABLE'));
  return { cmd, out, parse: (...args: string[]) => cmd.parse(args, { from: 'user' }).opts() };
}

describe('server options from the environment', () => {
  it('names each variable STARLANE_ and the long option in upper snake case', () => {
    expect(envName('--max-players')).toBe('STARLANE_MAX_PLAYERS');
    expect(envName('--universe-key')).toBe('STARLANE_UNIVERSE_KEY');
    expect(envName('--log-level')).toBe('STARLANE_LOG_LEVEL');
    expect(envName('--agones-health-seconds')).toBe('STARLANE_AGONES_HEALTH_SECONDS');
  });

  it('takes a value from the environment, the command line over it, and the default without either', () => {
    expect(command().parse()).toMatchObject({ maxPlayers: 64, logLevel: 'info' });
    setEnv({ STARLANE_MAX_PLAYERS: '12', STARLANE_UNIVERSE_KEY: '/keys/u.key', STARLANE_LOG_LEVEL: 'warn' });
    const fromEnv = command();
    expect(fromEnv.parse()).toMatchObject({ maxPlayers: 12, universeKey: '/keys/u.key', logLevel: 'warn' });
    expect(fromEnv.cmd.getOptionValueSource('maxPlayers')).toBe('env');
    expect(command().parse('--max-players', '5')).toMatchObject({ maxPlayers: 5, universeKey: '/keys/u.key' });
  });

  it('refuses a bad value from the environment naming the variable, as it refuses a bad argument', () => {
    setEnv({ STARLANE_MAX_PLAYERS: 'lots' });
    const c = command();
    expect(() => c.parse()).toThrow(CommanderError);
    expect(c.out.join('')).toContain("error: option '--max-players <n>' value 'lots' from env 'STARLANE_MAX_PLAYERS' is invalid. must be an integer from 1 to 255");
    setEnv({ STARLANE_MAX_PLAYERS: '8', STARLANE_LOG_LEVEL: 'loud' });
    const d = command();
    expect(() => d.parse()).toThrow(CommanderError);
    expect(d.out.join('')).toContain("from env 'STARLANE_LOG_LEVEL' is invalid. Allowed choices are info, warn.");
  });

  it('turns a flag on for yes, leaves it off for no, and refuses anything else naming the variable', () => {
    for (const yes of ['1', 'true', 'YES', 'on']) {
      setEnv({ STARLANE_AGONES: yes });
      expect(command().parse().agones).toBe(true);
    }
    for (const no of ['0', 'false', 'no', 'off', '']) {
      setEnv({ STARLANE_AGONES: no });
      expect(command().parse().agones).toBeUndefined();
    }
    setEnv({ STARLANE_AGONES: 'maybe' });
    const c = command();
    expect(() => c.parse()).toThrow(CommanderError);
    expect(c.out.join('')).toContain('error: STARLANE_AGONES="maybe" is invalid for --agones: must be 1, true, yes or on (or 0, false, no, off)');
  });

  it('keeps a variable an option names itself, and shows every variable in the help', () => {
    setEnv({ OWN_VARIABLE: 'mine', STARLANE_OWN: 'not this one' });
    const c = command();
    expect(c.parse().own).toBe('mine');
    const help = c.cmd.helpInformation();
    for (const name of ['STARLANE_MAX_PLAYERS', 'STARLANE_UNIVERSE_KEY', 'STARLANE_AGONES', 'STARLANE_LOG_LEVEL', 'OWN_VARIABLE']) expect(help).toContain(`env: ${name}`);
    expect(help).not.toContain('STARLANE_OWN');
  });
});
