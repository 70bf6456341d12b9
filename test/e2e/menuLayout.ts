/**
 * What a player at any window size notices of a menu page: a control out of
 * the window, two controls on top of each other, text too small to read.
 * Measured from the bounding boxes of the layer showing (used by every menu
 * page's e2e test).
 */
import type { Page } from 'playwright-core';

/** The smallest text a menu may use, CSS px. */
export const MIN_TEXT_PX = 12;

export interface LayoutReport {
  layer: string;
  controls: number;
  smallestTextPx: number;
  problems: string[];
}

/** Checks the menu layer showing on `page`; `problems` is empty when it reads well. */
export async function menuLayout(page: Page): Promise<LayoutReport> {
  return page.evaluate((minText) => {
    const layer = document.querySelector<HTMLElement>('#menu > section:not([hidden])');
    if (!layer) return { layer: 'none', controls: 0, smallestTextPx: 0, problems: ['no menu layer shows'] };
    const problems: string[] = [];
    const name = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''} "${(e.textContent ?? (e as HTMLInputElement).value ?? '').trim().slice(0, 24)}"`;
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const controls = [...layer.querySelectorAll<HTMLElement>('button, input, select')].filter((e) => e.offsetParent !== null);
    // The layer may scroll (a long settings page): what must be inside the window is the layer itself and whatever of it shows.
    const box = layer.getBoundingClientRect();
    if (box.left < 0 || box.top < 0 || box.right > vw || box.bottom > vh) problems.push(`the page ${layer.id} reaches outside the ${vw}x${vh} window`);
    const rects = controls.map((c) => c.getBoundingClientRect());
    rects.forEach((r, i) => {
      const shown = r.bottom > box.top && r.top < box.bottom;
      // What shows of a control the scrolling layer cuts at its top or bottom edge is the part inside the layer.
      const top = Math.max(r.top, box.top);
      const bottom = Math.min(r.bottom, box.bottom);
      if (shown && (r.left < 0 || r.right > vw || top < 0 || bottom > vh)) problems.push(`${name(controls[i]!)} is outside the window`);
      if (r.width < 1 || r.height < 1) problems.push(`${name(controls[i]!)} has no size`);
      for (let j = i + 1; j < rects.length; j++) {
        const o = rects[j]!;
        const overlap = Math.min(r.right, o.right) - Math.max(r.left, o.left) > 0.5 && Math.min(r.bottom, o.bottom) - Math.max(r.top, o.top) > 0.5;
        if (overlap) problems.push(`${name(controls[i]!)} overlaps ${name(controls[j]!)}`);
      }
    });
    let smallest = Infinity;
    for (const e of [layer, ...layer.querySelectorAll<HTMLElement>('*')]) {
      const hasText = [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '') || e instanceof HTMLInputElement;
      if (!hasText || e.offsetParent === null) continue;
      const px = parseFloat(getComputedStyle(e).fontSize);
      smallest = Math.min(smallest, px);
      if (px < minText) problems.push(`${name(e)} is set in ${px} px`);
    }
    return { layer: layer.id, controls: controls.length, smallestTextPx: smallest, problems };
  }, MIN_TEXT_PX);
}
