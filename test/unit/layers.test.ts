import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLayers } from '../support/layerRules';
import { tempDir } from '../support/testRun';

const repoRoot = join(import.meta.dirname, '..', '..');

describe('runtime layer rule', () => {
  it('holds for the whole source tree: imports point only downward', () => {
    expect(checkLayers(repoRoot)).toEqual([]);
  });

  describe('catches deliberate violations', () => {
    const root = tempDir('layers');
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };

    it('reports shared code importing the node layer, a Node builtin, and electron', () => {
      write('src/node/udp.ts', 'export const x = 1;\n');
      write('src/shared/bad.ts', "import { x } from '../node/udp';\nimport { readFile } from 'node:fs';\nimport { app } from 'electron';\n");
      const found = checkLayers(root).filter((v) => v.file.endsWith('bad.ts'));
      expect(found.map((v) => v.spec)).toEqual(['../node/udp', 'node:fs', 'electron']);
      rmSync(join(root, 'src/shared/bad.ts'));
    });

    it('reports the renderer importing a Node builtin or the main process', () => {
      write('src/main/index.ts', "import { app } from 'electron';\n");
      write('src/renderer/src/bad.ts', "import os from 'os';\nimport '../../main/index';\n");
      const found = checkLayers(root).filter((v) => v.file.includes('renderer'));
      expect(found.map((v) => v.spec)).toEqual(['os', '../../main/index']);
      rmSync(join(root, 'src/renderer/src/bad.ts'));
    });

    it('reports electron imported from node code and accepts it in the Electron entry files', () => {
      write('src/node/host.ts', "import { ipcMain } from 'electron';\n");
      const found = checkLayers(root);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ file: join('src', 'node', 'host.ts'), spec: 'electron' });
    });
  });
});
