/**
 * What a Starlane server says of itself in A2S_INFO (a2sQuery.ts): its name,
 * its map (the arena every Starlane match starts from, until galaxies name
 * their solar systems), the game's folder and name, its players and seats,
 * the machine it runs on, its version and the TCP port a player joins at.
 */
import type { A2sInfo } from '../../../shared/servers/a2sQuery';
import { APP_VERSION } from '../../version';

/** The map a server without a galaxy names: the default galaxy's one solar system. */
export const A2S_MAP = 'Sol';

/** The environment byte for this machine: Linux, Windows or macOS. */
export function a2sEnvironment(platform: string = process.platform): A2sInfo['environment'] {
  return platform === 'win32' ? 'w' : platform === 'darwin' ? 'm' : 'l';
}

/** A2S_INFO's fields for a server named `name` with `players` of `maxPlayers` seats, joined at TCP `gamePort`. */
export function a2sInfo(s: { name: string; map: string; players: number; maxPlayers: number; gamePort: number; bots?: number }): A2sInfo {
  return { name: s.name, map: s.map, folder: 'starlane', game: 'Starlane', players: s.players, maxPlayers: s.maxPlayers, bots: s.bots ?? 0, environment: a2sEnvironment(), private: false, version: APP_VERSION, gamePort: s.gamePort };
}
