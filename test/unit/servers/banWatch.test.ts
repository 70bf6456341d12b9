import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { watchBanList, type BanWatch } from '../../../src/node/servers/join/banWatch';
import type { BanList } from '../../../src/node/servers/join/banList';
import { tempDir } from '../../support/testRun';

const watches: BanWatch[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const w of watches.splice(0)) w.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function watched(text: string, onChange: (l: BanList) => void = () => undefined): Promise<{ file: string; w: BanWatch }> {
  const dir = tempDir('banwatch');
  dirs.push(dir);
  const file = join(dir, 'bans.txt');
  writeFileSync(file, text);
  // An hour between polls: only reload() reads the file in these tests.
  const w = await watchBanList(file, { log: pino({ level: 'silent' }), pollMs: 3_600_000, onChange });
  watches.push(w);
  return { file, w };
}

describe('watchBanList', () => {
  it('rejects when the first read fails', async () => {
    await expect(watchBanList('/nonexistent/starlane/bans.txt', { log: pino({ level: 'silent' }), onChange: () => undefined })).rejects.toThrow();
  });

  it('reload() puts the new list in force and reports it', async () => {
    const seen: number[] = [];
    const { file, w } = await watched('192.0.2.1\n', (l) => seen.push(l.size));
    writeFileSync(file, '192.0.2.2\n2001:db8::/32\n');
    await w.reload('test');
    expect(w.list.isBanned('192.0.2.1')).toBe(false);
    expect(w.list.isBanned('2001:db8::9')).toBe(true);
    expect(seen).toEqual([2]);
  });

  it('keeps the bans in force when the file cannot be read again', async () => {
    const seen: number[] = [];
    const { file, w } = await watched('192.0.2.1\n', (l) => seen.push(l.size));
    unlinkSync(file);
    await w.reload('test');
    expect(w.list.isBanned('192.0.2.1')).toBe(true);
    expect(seen).toEqual([]);
  });

  it('reads nothing after close()', async () => {
    const seen: number[] = [];
    const { file, w } = await watched('192.0.2.1\n', (l) => seen.push(l.size));
    w.close();
    writeFileSync(file, '');
    await w.reload('test');
    expect(w.list.isBanned('192.0.2.1')).toBe(true);
    expect(seen).toEqual([]);
  });
});
