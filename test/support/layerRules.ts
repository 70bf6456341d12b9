import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** The runtime layers, in the order imports may point (downward only). */
export type Layer = 'shared' | 'node' | 'electron-main' | 'electron-preload' | 'browser';

const LAYER_DIRS: [string, Layer][] = [
  ['src/shared', 'shared'],
  ['src/node', 'node'],
  ['src/main', 'electron-main'],
  ['src/preload', 'electron-preload'],
  ['src/renderer', 'browser'],
];

/** Which layers each layer may import from. */
const MAY_IMPORT: Record<Layer, Layer[]> = {
  shared: ['shared'],
  node: ['shared', 'node'],
  'electron-main': ['shared', 'node', 'electron-main'],
  'electron-preload': ['shared', 'electron-preload'],
  browser: ['shared', 'browser'],
};

/** Packages a layer may import besides its own relative files. */
function packageAllowed(layer: Layer, spec: string): string | null {
  const bare = spec.startsWith('node:') ? spec.slice(5) : spec.split('/')[0] ?? spec;
  const builtin = spec.startsWith('node:') || builtinModules.includes(bare);
  if (spec === 'electron' || spec.startsWith('electron/')) {
    return layer === 'electron-main' || layer === 'electron-preload' ? null : 'only the Electron entry layers (src/main, src/preload) may import electron';
  }
  if (builtin) {
    return layer === 'node' || layer === 'electron-main' ? null : `${layer} code may not import the Node builtin "${spec}"`;
  }
  if (layer === 'shared') return `shared code is pure TypeScript and may not import the package "${spec}"`;
  if (layer === 'electron-preload') return `the preload may import only electron and shared code, not "${spec}"`;
  return null;
}

export interface LayerViolation {
  file: string;
  spec: string;
  reason: string;
}

function layerOf(root: string, file: string): Layer | null {
  const rel = relative(root, file).split(sep).join('/');
  for (const [dir, layer] of LAYER_DIRS) if (rel === dir || rel.startsWith(`${dir}/`)) return layer;
  return null;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx|mts|cts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/**
 * Reads every source file under `root/src` and reports each import that
 * points upward across the runtime layers or pulls in something the layer
 * must not use (Node builtins outside node/main, electron outside the
 * Electron entry layers, packages in shared code).
 */
export function checkLayers(root: string): LayerViolation[] {
  const violations: LayerViolation[] = [];
  for (const file of sourceFiles(join(root, 'src'))) {
    const layer = layerOf(root, file);
    if (!layer) continue;
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: spec } of info.importedFiles) {
      const rel = relative(root, file);
      if (spec.startsWith('.')) {
        const target = layerOf(root, resolve(dirname(file), spec));
        if (target === null) {
          if (!resolve(dirname(file), spec).startsWith(resolve(root, 'package.json'))) {
            violations.push({ file: rel, spec, reason: `${layer} imports a file outside the layer folders` });
          }
        } else if (!MAY_IMPORT[layer].includes(target)) {
          violations.push({ file: rel, spec, reason: `${layer} may not import from ${target} (imports point downward only)` });
        }
      } else {
        const reason = packageAllowed(layer, spec);
        if (reason) violations.push({ file: rel, spec, reason });
      }
    }
  }
  return violations;
}
