import { join } from 'node:path';

/** The repository's root folder. */
export const repoRoot = join(import.meta.dirname, '..', '..');

/** Built entry points (`npm test` builds them first). */
export const webEntry = join(repoRoot, 'out', 'main', 'web.js');
export const serverEntry = join(repoRoot, 'out', 'main', 'server.js');
export const botEntry = join(repoRoot, 'out', 'main', 'bot.js');
export const demoEntry = join(repoRoot, 'out', 'main', 'demo.js');
