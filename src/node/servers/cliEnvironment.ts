/**
 * Server options from the environment (a container's usual configuration):
 * every option of a server subcommand can also be given as
 * `STARLANE_<OPTION_IN_UPPER_SNAKE>` (`--max-players` → `STARLANE_MAX_PLAYERS`).
 * The command line wins over the environment, which wins over the default;
 * `--help` names each variable; a bad value is refused like a bad argument,
 * naming the variable (commander's `Option.env`).
 */
import type { Command, Option } from 'commander';

/** The prefix of every server option's environment variable. */
export const ENV_PREFIX = 'STARLANE_';

/** The environment variable of the option whose long flag is `long` (`--max-players` → `STARLANE_MAX_PLAYERS`). */
export function envName(long: string): string {
  return ENV_PREFIX + long.replace(/^--/, '').replace(/-/g, '_').toUpperCase();
}

/** Values of a variable standing for an option without a value (a flag such as `--agones`). */
const YES = ['1', 'true', 'yes', 'on'];
const NO = ['0', 'false', 'no', 'off', ''];

/**
 * Makes every option later added to `cmd` (by `.option()` or `.addOption()`)
 * readable from its environment variable; an option that names a variable of
 * its own keeps it. A flag's variable must say yes (1, true, yes, on) or no
 * (0, false, no, off, or empty); anything else stops the command naming it.
 * Call it before the options are added: commander wires the variable as the
 * option is added.
 */
export function optionsFromEnvironment(cmd: Command): Command {
  const add = cmd.addOption.bind(cmd);
  cmd.addOption = (option: Option): Command => {
    if (option.envVar === undefined && option.long !== undefined) option.env(envName(option.long));
    add(option);
    const variable = option.envVar;
    if (variable !== undefined && !option.required && !option.optional) {
      // Commander sets a flag whenever its variable exists, whatever it says: a "0" must not turn it on.
      cmd.on(`optionEnv:${option.name()}`, () => {
        const said = (process.env[variable] ?? '').trim().toLowerCase();
        if (YES.includes(said)) return;
        if (NO.includes(said)) return cmd.setOptionValueWithSource(option.attributeName(), undefined, 'env');
        cmd.error(`error: ${variable}=${JSON.stringify(process.env[variable])} is invalid for ${option.long ?? option.flags}: must be 1, true, yes or on (or 0, false, no, off)`, { code: 'commander.invalidArgument' });
      });
    }
    return cmd;
  };
  return cmd;
}
