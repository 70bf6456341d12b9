import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The per-user folder where Starlane keeps settings and logs. Both shells use
 * the same folder, so a player's name and history follow them from the
 * browser shell to the Electron window. `STARLANE_USER_DATA` overrides it
 * (tests and portable installs).
 */
export function defaultUserDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.STARLANE_USER_DATA) return env.STARLANE_USER_DATA;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Starlane');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Starlane');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'starlane');
}
