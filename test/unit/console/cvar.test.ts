import { describe, expect, it, vi } from 'vitest';
import { Cvar, requirePrintable } from '../../../src/shared/console/cvar';

const sendfreq = (): Cvar<'int'> => new Cvar({ name: 'sendfreq', type: 'int', default: 20, min: 5, max: 60, help: 'packets per second' });

describe('Cvar', () => {
  it('starts at its default', () => {
    const c = sendfreq();
    expect(c.value).toBe(20);
    expect(c.text).toBe('20');
    expect(c.isDefault).toBe(true);
  });

  it('parses an int in range and stores it', () => {
    const c = sendfreq();
    expect(c.set('30')).toEqual({ ok: true, value: 30 });
    expect(c.value).toBe(30);
    expect(c.isDefault).toBe(false);
  });

  it('refuses an int out of range with one clear line', () => {
    const c = sendfreq();
    expect(c.set('99')).toEqual({ ok: false, error: 'sendfreq must be an integer from 5 to 60 (got 99)' });
    expect(c.set('4')).toMatchObject({ ok: false });
    expect(c.value).toBe(20);
  });

  it('refuses text that is not an integer with the same line', () => {
    const c = sendfreq();
    for (const bad of ['2.5', 'abc', '', '1e3', '0x10', 'Infinity']) {
      const r = c.set(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error).toMatch(/^sendfreq must be an integer from 5 to 60 \(got .*\)$/);
        expect(r.error).not.toContain('\n');
      }
    }
    expect(c.set('abc')).toEqual({ ok: false, error: 'sendfreq must be an integer from 5 to 60 (got "abc")' });
  });

  it('cuts long bad input in the error line', () => {
    const r = sendfreq().set('x'.repeat(500));
    expect(r.ok || r.error.length < 100).toBe(true);
  });

  it('parses floats with one-sided ranges', () => {
    const c = new Cvar({ name: 'fov_scale', type: 'float', default: 1, min: 0.1, help: '' });
    expect(c.set('0.5')).toEqual({ ok: true, value: 0.5 });
    expect(c.set('.25')).toEqual({ ok: true, value: 0.25 });
    expect(c.set('0')).toEqual({ ok: false, error: 'fov_scale must be a number of at least 0.1 (got 0)' });
    expect(c.set('NaN')).toMatchObject({ ok: false });
  });

  it('accepts every bool spelling, case-insensitively, and prints bools as 1/0', () => {
    const c = new Cvar({ name: 'cl_showfps', type: 'bool', default: false, help: '' });
    for (const [text, value] of [['1', true], ['0', false], ['true', true], ['FALSE', false], ['on', true], ['Off', false]] as const) {
      expect(c.set(text)).toEqual({ ok: true, value });
      expect(c.text).toBe(value ? '1' : '0');
    }
    expect(c.set('yes')).toEqual({ ok: false, error: 'cl_showfps must be 0/1, true/false or on/off (got "yes")' });
  });

  it('checks allowed string values and stores their canonical spelling', () => {
    const c = new Cvar({ name: 'r_quality', type: 'string', default: 'medium', allowed: ['low', 'medium', 'high'], help: '' });
    expect(c.set('HIGH')).toEqual({ ok: true, value: 'high' });
    expect(c.set('ultra')).toEqual({ ok: false, error: 'r_quality must be one of low, medium, high (got "ultra")' });
  });

  it('checks string length and the validate hook', () => {
    const c = new Cvar({ name: 'name', type: 'string', default: 'pilot', maxLength: 8, validate: requirePrintable, help: '' });
    expect(c.set('ace')).toEqual({ ok: true, value: 'ace' });
    expect(c.set('abcdefghij')).toEqual({ ok: false, error: 'name must be at most 8 characters (got 10)' });
    expect(c.set('a\x1bb')).toEqual({ ok: false, error: 'name: must contain printable characters only' });
  });

  it('refuses read-only cvars unless forced', () => {
    const c = new Cvar({ name: 'version', type: 'string', default: '0.1', flags: { readOnly: true }, help: '' });
    expect(c.set('9')).toEqual({ ok: false, error: 'version is read-only' });
    expect(c.setValue('9')).toEqual({ ok: false, error: 'version is read-only' });
    expect(c.set('0.2', { force: true })).toEqual({ ok: true, value: '0.2' });
  });

  it('refuses a typed value of the wrong JS type', () => {
    const c = sendfreq() as unknown as Cvar<'string'>;
    expect(c.setValue('30').ok).toBe(false);
  });

  it('calls listeners on change only, with new and previous value', () => {
    const c = sendfreq();
    const seen = vi.fn();
    const off = c.onChange(seen);
    c.set('30');
    c.set('30');
    expect(seen).toHaveBeenCalledTimes(1);
    expect(seen).toHaveBeenCalledWith(30, 20, c);
    off();
    c.set('40');
    expect(seen).toHaveBeenCalledTimes(1);
  });

  it('still runs every listener and keeps the value when one throws, then rethrows', () => {
    const c = sendfreq();
    const later = vi.fn();
    c.onChange(() => {
      throw new Error('boom');
    });
    c.onChange(later);
    expect(() => c.set('30')).toThrow('boom');
    expect(later).toHaveBeenCalled();
    expect(c.value).toBe(30);
  });

  it('reset puts the default back', () => {
    const c = sendfreq();
    c.set('30');
    expect(c.reset()).toEqual({ ok: true, value: 20 });
    expect(c.isDefault).toBe(true);
  });

  it('describes itself on one line', () => {
    const c = new Cvar({ name: 'sendfreq', type: 'int', default: 20, min: 5, max: 60, help: 'packets per second', flags: { archive: true } });
    c.set('30');
    expect(c.describe()).toBe('sendfreq is "30" (default "20", range 5 to 60, archived) — packets per second');
  });

  it('throws on programmer errors in the definition', () => {
    expect(() => new Cvar({ name: 'a b', type: 'int', default: 1, help: '' })).toThrow();
    expect(() => new Cvar({ name: 'x', type: 'int', default: 100, min: 0, max: 10, help: '' })).toThrow(/bad default/);
    expect(() => new Cvar({ name: 'x', type: 'int', default: 1.5, help: '' })).toThrow();
    expect(() => new Cvar({ name: 'x', type: 'bool', default: true, min: 0, help: '' })).toThrow();
    expect(() => new Cvar({ name: 'x', type: 'string', default: 'q', allowed: ['a'], help: '' })).toThrow();
  });

  it('dispose drops listeners and tells its owner once', () => {
    const owner = vi.fn();
    const c = new Cvar({ name: 'x', type: 'int', default: 1, help: '' }, owner);
    const seen = vi.fn();
    c.onChange(seen);
    c.dispose();
    c.dispose();
    expect(owner).toHaveBeenCalledTimes(1);
    expect(c.disposed).toBe(true);
    c.set('2');
    expect(seen).not.toHaveBeenCalled();
  });
});
