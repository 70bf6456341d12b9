import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, claimInstanceProfile, instanceDir, seedInstanceSettings, type InstanceProfile } from '../../../src/node/settings/instanceProfile';
import { SettingsStore } from '../../../src/node/settings/store';
import { defaultSettings } from '../../../src/shared/settings/settings';
import { tempDir } from '../../support/testRun';

const held: InstanceProfile[] = [];
const claim = async (dir: string) => {
  const profile = await claimInstanceProfile(dir);
  held.push(profile);
  return profile;
};
afterEach(() => held.splice(0).forEach((p) => p.release()));

/** A pid that certainly ran and has certainly exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('instance profiles: one settings folder per running Starlane', () => {
  it('the first instance uses the user-data folder, a second one at the same time instance-2, a third instance-3', async () => {
    const dir = tempDir('profiles');
    const [a, b, c] = [await claim(dir), await claim(dir), await claim(dir)];
    expect([a.dir, b.dir, c.dir]).toEqual([dir, join(dir, 'instance-2'), join(dir, 'instance-3')]);
    expect([a.instance, b.instance, c.instance]).toEqual([1, 2, 3]);
    expect(b.mainHeldBy).toBe(process.pid);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('a folder given back is the next instance to start', async () => {
    const dir = tempDir('profiles');
    const a = await claim(dir);
    const b = await claim(dir);
    a.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    expect((await claim(dir)).instance).toBe(1);
    b.release();
    expect((await claim(dir)).instance).toBe(2);
  });

  it('takes over the lock of an instance that crashed, and an unreadable lock', async () => {
    const dir = tempDir('profiles');
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), started: '' }));
    mkdirSync(instanceDir(dir, 2));
    expect((await claim(dir)).instance).toBe(1);
    writeFileSync(join(instanceDir(dir, 2), LOCK_FILE), 'not json');
    expect((await claim(dir)).instance).toBe(2);
  });

  it('release leaves a lock alone that another instance has since taken', async () => {
    const dir = tempDir('profiles');
    const a = await claim(dir);
    const other = JSON.stringify({ pid: process.ppid, started: '' });
    writeFileSync(join(dir, LOCK_FILE), other);
    a.release();
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(other);
  });

  it('a new instance folder starts from the main settings under its own name', async () => {
    const main = { ...defaultSettings(), playerName: 'maverick', history: ['name maverick'] };
    expect(seedInstanceSettings(main, 2)).toEqual({ ...main, playerName: 'maverick-2' });
    expect(seedInstanceSettings({ ...main, playerName: 'a very long name' }, 12).playerName).toBe('a very long n-12');
    expect(seedInstanceSettings({ ...main, playerName: 'Red Baron Redux!' }, 3).playerName).toBe('Red Baron Redu-3');

    const dir = tempDir('profiles');
    const { store, report } = await SettingsStore.open(dir, { seed: async () => seedInstanceSettings(main, 2) });
    expect(report.status).toBe('seeded');
    expect(store.get().playerName).toBe('maverick-2');
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).playerName).toBe('maverick-2');
    expect((await SettingsStore.open(dir, { seed: async () => defaultSettings() })).report.status).toBe('ok');
  });
});
