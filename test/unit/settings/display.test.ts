import { describe, expect, it } from 'vitest';
import { DEFAULT_QUALITY, qualityOf, UI_SCALE_MAX, UI_SCALE_MIN, uiScaleOf } from '../../../src/shared/settings/display';

describe('display settings as the page reads them (untrusted text)', () => {
  it('quality: a level by name, else the default', () => {
    expect(qualityOf('low')).toBe('low');
    expect(qualityOf('medium')).toBe('medium');
    expect(qualityOf(undefined)).toBe(DEFAULT_QUALITY);
    expect(qualityOf('ultra')).toBe(DEFAULT_QUALITY);
    expect(qualityOf('__proto__')).toBe(DEFAULT_QUALITY);
  });

  it('UI scale: a number kept within its limits, else 1', () => {
    expect(uiScaleOf('1.5')).toBe(1.5);
    expect(uiScaleOf('9')).toBe(UI_SCALE_MAX);
    expect(uiScaleOf('0.1')).toBe(UI_SCALE_MIN);
    expect(uiScaleOf(undefined)).toBe(1);
    expect(uiScaleOf('')).toBe(1);
    expect(uiScaleOf('big')).toBe(1);
    expect(uiScaleOf('Infinity')).toBe(1);
  });
});
