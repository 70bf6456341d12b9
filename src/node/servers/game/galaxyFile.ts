/**
 * `--galaxy <file>`: reads a gameserver's galaxy file (galaxyMap.ts). A file
 * that cannot be read, or that readGalaxy refuses, rejects with the one line
 * an admin reads (the file, the line, why), so the server does not start.
 */
import { readFile } from 'node:fs/promises';
import { galaxyRefusal, MAX_GALAXY_BYTES, readGalaxy, type Galaxy } from '../../../shared/servers/galaxyMap';

export async function loadGalaxy(file: string): Promise<Galaxy> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new Error(`galaxy file ${file}: cannot be read (${e.code ?? e.message})`, { cause: err });
  }
  if (bytes.length > MAX_GALAXY_BYTES) throw new Error(`galaxy file ${file}: more than ${MAX_GALAXY_BYTES} bytes`);
  const r = readGalaxy(bytes.toString('latin1'));
  if (!r.ok) throw new Error(galaxyRefusal(file, r));
  return r.galaxy;
}
