/**
 * What the settings screen learns from a complete host: every archived cvar's
 * rules in the snapshot (hello().cvars) — the ones the screen shows among
 * them, none of the unsaved testing cvars — and the page's own cvars
 * (ui_scale, r_quality, m_invert) checked and saved like every cvar.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/testHost';

const hosts: TestHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
});

describe('cvar rules for the settings screen', () => {
  it('the snapshot describes every archived cvar the screen shows, and no unsaved one', async () => {
    const t = await startTestHost('alpha');
    hosts.push(t);
    const cvars = new Map(t.host.hello().cvars.map((c) => [c.name, c]));
    for (const name of ['sensitivity', 'm_invert', 'joy_deadzone', 'joy_invert', 'sendfreq', 'net_smooth', 'netgraph', 'killlimit', 'timelimit', 'ui_scale', 'r_quality']) expect(cvars.has(name), name).toBe(true);
    expect(cvars.get('sensitivity')).toMatchObject({ type: 'float', min: 0.1, max: 10, default: '1', help: 'mouse steering sensitivity' });
    expect(cvars.get('ui_scale')).toMatchObject({ type: 'float', min: 0.75, max: 2, default: '1' });
    expect(cvars.get('r_quality')).toMatchObject({ type: 'string', allowed: ['low', 'medium', 'high'], default: 'high' });
    expect(cvars.get('m_invert')).toMatchObject({ type: 'bool', default: '0' });
    expect(cvars.has('net_fakelag')).toBe(false);
  });

  it('ui_scale, r_quality and m_invert are checked, saved and sent to the page', async () => {
    const t = await startTestHost('alpha');
    hosts.push(t);
    await t.run('ui_scale 3');
    await t.run('ui_scale 1.25; r_quality LOW; m_invert 1');
    await new Promise((r) => setImmediate(r));
    expect(t.text()).toMatch(/^ui_scale must be a number from 0\.75 to 2 \(got 3\)$/m);
    expect(t.host.settings.get().cvars).toMatchObject({ ui_scale: '1.25', r_quality: 'low', m_invert: '1' });
    const sent = t.events.flatMap((e) => (e.kind === 'settings' ? [e.settings.cvars] : [])).at(-1);
    expect(sent).toMatchObject({ ui_scale: '1.25', r_quality: 'low', m_invert: '1' });
  });
});
