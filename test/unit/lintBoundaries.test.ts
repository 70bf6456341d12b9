/**
 * The import boundaries ESLint enforces (eslint.config.mjs, `npm run lint`):
 * the folders of src/shared in their order (SHARED_ORDER) and the runtime
 * layers. Each case lints a scratch file that exists only as text, through
 * ESLint's Node API with the project's own config, and reads the boundary
 * rule's verdict; test/unit/layers.test.ts checks the runtime layers (and
 * the packages each may use) on the whole tree without ESLint.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: repoRoot });

/** The boundary rules' messages for `code` as if it were the file `filePath` (relative to the repo). */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(repoRoot, filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId?.startsWith('boundaries/')).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('import boundaries (ESLint)', { timeout: 60_000 }, () => {
  it('reports a folder of src/shared importing one above it, value or type', async () => {
    const value = await boundaryErrors('src/shared/wire/scratch.ts', "import { createWorld } from '../game/world';\nexport const w = createWorld;\n");
    expect(value).toHaveLength(1);
    expect(value[0]).toMatch(/^boundaries\/dependencies: src\/shared\/wire may import only util, sim, console, loop, subsystems, wire /);

    const type = await boundaryErrors('src/shared/net/scratch.ts', "import type { ProtocolGame } from '../protocol/protocol';\nexport type G = ProtocolGame;\n");
    expect(type).toHaveLength(1);
    expect(type[0]).toContain('src/shared/net may import only');
  });

  it('accepts imports downward and within a folder', async () => {
    const code = "import type { ShipState } from '../wire/types';\nimport { RULES } from './rules';\nexport type S = ShipState;\nexport const r = RULES;\n";
    expect(await boundaryErrors('src/shared/game/scratch.ts', code)).toEqual([]);
    expect(await boundaryErrors('src/shared/host/scratch.ts', "import { RULES } from '../game/rules';\nexport const r = RULES;\n")).toEqual([]);
  });

  it('reports the runtime layers importing upward or sideways, and accepts shared code everywhere', async () => {
    const log = "import { createLogger } from '../../node/log';\nexport const l = createLogger;\n";
    expect(await boundaryErrors('src/shared/net/scratch.ts', log)).toHaveLength(1);
    const fromRenderer = await boundaryErrors('src/renderer/src/scratch.ts', log);
    expect(fromRenderer).toHaveLength(1);
    expect(fromRenderer[0]).toContain('src/renderer may import only src/shared');
    expect(await boundaryErrors('src/node/scratch.ts', "import { RULES } from '../shared/game/rules';\nexport const r = RULES;\n")).toEqual([]);
  });

  it('reports a file in a folder of src/shared that has no place in the order', async () => {
    const found = await boundaryErrors('src/shared/unplaced/scratch.ts', 'export const x = 1;\n');
    expect(found).toEqual([expect.stringMatching(/^boundaries\/no-unknown-files: /)]);
  });
});
