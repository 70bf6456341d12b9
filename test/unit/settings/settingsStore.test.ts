import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsStore } from '../../../src/node/settings/store';
import { defaultSettings, sanitizeSettings } from '../../../src/shared/settings/settings';
import { validatePlayerName } from '../../../src/shared/wire/strings';
import { ACTION_COMMANDS } from '../../../src/shared/settings/bindings';
import { tempDir } from '../../support/testRun';

const freshDir = () => tempDir('settings');

describe('settings store', () => {
  it('starts with defaults on first run and remembers changes across reopen', async () => {
    const dir = freshDir();
    const first = await SettingsStore.open(dir);
    expect(first.report.status).toBe('missing');
    expect(first.store.get()).toEqual(defaultSettings());
    first.store.update((s) => {
      s.playerName = 'maverick';
      s.history = ['name maverick'];
    });
    await first.store.save();
    const again = await SettingsStore.open(dir);
    expect(again.report.status).toBe('ok');
    expect(again.store.get().playerName).toBe('maverick');
    expect(again.store.get().history).toEqual(['name maverick']);
  });

  it('reports a corrupt file, keeps it as a backup and starts from defaults', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'settings.json'), '{"playerName": "goose",');
    const { store, report } = await SettingsStore.open(dir);
    expect(report.status).toBe('corrupt');
    expect(report.backupPath).toBeDefined();
    expect(readFileSync(report.backupPath as string, 'utf8')).toBe('{"playerName": "goose",');
    expect(store.get()).toEqual(defaultSettings());
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toEqual(defaultSettings());
  });

  it('resets only the invalid fields and says which', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ playerName: 'ice\u0007man', packetApi: 'ipx', cvars: { sensitivity: '2' }, history: ['a', 5] }));
    const { store, report } = await SettingsStore.open(dir);
    expect(report.status).toBe('repaired');
    expect(report.issues).toEqual(expect.arrayContaining(['playerName', 'packetApi', 'history']));
    expect(store.get()).toMatchObject({ playerName: 'pilot', packetApi: 'udp', cvars: { sensitivity: '2' }, history: ['a'] });
  });

  it('loads a version-1 file from before the combat keys: its keys kept in the version-2 table, the combat keys at their defaults, no issues', async () => {
    const dir = freshDir();
    const old = { fire: 'KeyX', thrust: 'KeyW', brake: 'KeyS', yawLeft: 'KeyA', yawRight: 'KeyD', pitchUp: 'ArrowDown', pitchDown: 'ArrowUp', rollLeft: 'KeyQ', rollRight: 'KeyE', console: 'Backquote' };
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ version: 1, playerName: 'goose', bindings: old, packetApi: 'udp', cvars: {}, history: [] }));
    const { store, report } = await SettingsStore.open(dir);
    expect(report.status).toBe('ok');
    const b = store.get().bindings;
    expect(store.get().version).toBe(2);
    expect(b['KeyX']).toBe('+fire');
    expect(b).toMatchObject({ ShiftLeft: '+afterburner', KeyF: '+missile', KeyG: '+mine', KeyR: '+emp', KeyT: 'target', Tab: '+scores' });
    // The page's fixed mouse buttons of version 1 are bindings now; Space no longer fires (the file said X).
    const expected: Record<string, string> = { ...defaultSettings().bindings, KeyX: '+fire' };
    delete expected['Space'];
    expect(b).toEqual(expected);
  });

  it('keeps valid combat keys and resets bad ones with an issue each', () => {
    const { settings, issues } = sanitizeSettings({ bindings: { missile: 'KeyM', mine: 'Key G', emp: 7, scoreboard: 'CapsLock' } });
    expect(settings.bindings).toMatchObject({ KeyM: '+missile', KeyG: '+mine', KeyR: '+emp', CapsLock: '+scores' });
    expect(issues).toEqual(['bindings.mine', 'bindings.emp']);
  });

  it('binds every action to at least one input by default', () => {
    const table = defaultSettings().bindings;
    for (const command of Object.values(ACTION_COMMANDS)) expect(Object.values(table), command).toContain(command);
  });

  it('writes atomically: many quick updates leave one complete file and no temp files', async () => {
    const dir = freshDir();
    const { store } = await SettingsStore.open(dir);
    for (let i = 0; i < 50; i++) store.update((s) => void s.history.push(`cmd ${i}`));
    await store.save();
    expect(readdirSync(dir)).toEqual(['settings.json']);
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).history).toHaveLength(50);
  });
});

describe('player names', () => {
  it('accepts printable names up to 16 characters and refuses the rest with a reason', () => {
    expect(validatePlayerName('  maverick ')).toEqual({ ok: true, name: 'maverick' });
    expect(validatePlayerName('Red Baron')).toEqual({ ok: true, name: 'Red Baron' });
    expect(validatePlayerName('')).toMatchObject({ ok: false, error: expect.stringContaining('at least one') });
    expect(validatePlayerName('x'.repeat(17))).toMatchObject({ ok: false, error: expect.stringContaining('at most 16') });
    expect(validatePlayerName('bad\nname')).toMatchObject({ ok: false, error: expect.stringContaining('printable') });
    expect(validatePlayerName('ñame')).toMatchObject({ ok: false });
  });

  it('sanitizing never throws on arbitrary JSON values', () => {
    for (const raw of [null, 3, 'x', [], { bindings: 5 }, { cvars: [] }, { history: 'no' }]) {
      expect(() => sanitizeSettings(raw)).not.toThrow();
    }
  });
});
