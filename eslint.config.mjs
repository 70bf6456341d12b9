// ESLint for Starlane: typescript-eslint's recommended rules over src/, test/,
// bench/ and scripts/, and the import boundaries (eslint-plugin-boundaries):
// the runtime layers (as test/support/layerRules.ts enforces them) and the
// order of the folders of src/shared. `npm run lint`; test/unit/lintBoundaries.test.ts
// proves the boundary rule catches an upward import.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/**
 * The folders of src/shared, bottom first: a folder may import itself and the
 * folders before it, never one after it (docs/ARCHITECTURE.md, "Layers of
 * src/shared"). A new folder must be placed here (boundaries/no-unknown-files
 * reports a file in a folder that is not).
 *
 * - util, sim, console, loop, subsystems: leaves (helpers, math and PRNG, the
 *   console's commands and cvars, the fixed step, the jump table);
 * - wire: the bytes on the wire and their vocabulary (ship state, events,
 *   ship looks, player names, the datagram limit);
 * - time: clocks and the time sync, over wire;
 * - demo: the demo file format (docs/DEMO.md): chunks, CRC-32, the header;
 * - net: the packet API, the game-code interface, what the network delivers
 *   (gameLink), link layer, conditioner, reliable delivery, smoothing;
 * - game: the rules and the simulation, the client game (raises events
 *   through net's game-code interface);
 * - lockstep, netgame: the shared-world engines over the game;
 * - protocol: the protocol contract every protocol implements and the
 *   GameDriver that is the game every protocol sees;
 * - p2p, session: the peer-to-peer start-up and the session pipeline of the
 *   protocols;
 * - servers, settings, menu: the server browser and join lines, the saved
 *   settings (which keep servers), the menu state;
 * - host: the contract between the game page and the host, over everything.
 */
export const SHARED_ORDER = [
  'util',
  'sim',
  'console',
  'loop',
  'subsystems',
  'wire',
  'time',
  'net',
  'game',
  'lockstep',
  'netgame',
  'demo',
  'protocol',
  'p2p',
  'session',
  'servers',
  'settings',
  'menu',
  'host',
];

/** The runtime layers and which layers each may import (test/support/layerRules.ts MAY_IMPORT). */
const RUNTIME = {
  node: { pattern: 'src/node', mayImport: ['node'] },
  main: { pattern: 'src/main', mayImport: ['node', 'main'] },
  preload: { pattern: 'src/preload', mayImport: ['preload'] },
  renderer: { pattern: 'src/renderer', mayImport: ['renderer'] },
};

const sharedType = (folder) => `shared/${folder}`;
const ALL_SHARED = SHARED_ORDER.map(sharedType);

const boundaryElements = [
  ...SHARED_ORDER.map((folder) => ({ type: sharedType(folder), pattern: `src/shared/${folder}`, partialMatch: false })),
  ...Object.entries(RUNTIME).map(([type, { pattern }]) => ({ type, pattern, partialMatch: false })),
];

const ALL_TYPES = [...ALL_SHARED, ...Object.keys(RUNTIME)];

/** Each element may import the types in `allowed`; the others are refused with `message` (saying what it may import). */
const policy = (type, allowed, message) => [
  { from: { element: { type } }, allow: { to: { element: { type: allowed } } } },
  { from: { element: { type } }, disallow: { to: { element: { type: ALL_TYPES.filter((t) => !allowed.includes(t)) } } }, message },
];

const boundaryPolicies = [
  ...SHARED_ORDER.flatMap((folder, i) => {
    const below = SHARED_ORDER.slice(0, i + 1);
    return policy(sharedType(folder), below.map(sharedType), `src/shared/${folder} may import only ${below.join(', ')} (folders of src/shared point downward: SHARED_ORDER in eslint.config.mjs)`);
  }),
  ...Object.entries(RUNTIME).flatMap(([type, { mayImport }]) =>
    policy(type, [...ALL_SHARED, ...mayImport], `src/${type} may import only src/shared and ${mayImport.map((t) => `src/${t}`).join(', ')} (runtime layers point downward: docs/ARCHITECTURE.md)`),
  ),
];

export default defineConfig([
  { ignores: ['out/**', 'node_modules/**', 'test-artifacts/**', 'resources/**', 'dist/**'] },
  {
    files: ['**/*.{ts,mts,cts,mjs,js}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    rules: {
      // Control characters in regular expressions are the point where they appear: console and name sanitising, printable-ASCII checks.
      'no-control-regex': 'off',
      // A leading underscore marks a deliberately unused parameter, binding or destructured part.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': boundaryElements,
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs'] } },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies: boundaryPolicies }],
      'boundaries/no-unknown-files': 'error',
    },
  },
]);
