/**
 * Servers are measured as they are run: the node flags the tests and
 * benchmarks start servers with are the ones `npm run server` uses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../support/serverProcess';

describe('server node flags', () => {
  it('npm run server gives node the same flags the tests start servers with', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const run = /node ((?:--\S+ )*)out\/main\/server\.js/.exec(pkg.scripts['server'] ?? '');
    expect(run, 'the server script runs node out/main/server.js').not.toBeNull();
    expect((run?.[1] ?? '').trim().split(/\s+/).filter(Boolean)).toEqual([...SERVER_NODE_FLAGS]);
  });
});
