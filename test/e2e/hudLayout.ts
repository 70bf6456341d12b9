/**
 * What a player notices of the HUD's layout at any window size, measured
 * from bounding boxes (as menuLayout.ts does for the menu): HUD text too
 * small to read, a fixed part of the HUD reaching out of the window, and
 * fixed parts lying on top of one another. The marks that follow ships (the
 * target's brackets, the edge arrow, hit markers, missile chevrons) move over
 * everything by nature: only their text size is checked.
 */
import type { Page } from 'playwright-core';
import { MIN_TEXT_PX } from './menuLayout';

export interface HudLayoutReport {
  /** The smallest HUD text on screen, CSS px as drawn (zoom included). */
  smallestTextPx: number;
  /** Text elements measured. */
  texts: number;
  problems: string[];
}

/** Checks the HUD showing on `page`; `problems` is empty when it reads well. */
export async function hudLayout(page: Page): Promise<HudLayoutReport> {
  return page.evaluate((minText) => {
    const problems: string[] = [];
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    // The fixed parts, by group: two groups must not overlap; one group's own lines may touch.
    const groups = ['#hud', '#hud-ship', '#hud-top', '#hud-messages', '#hud-net', '#hud-radar'];
    const moving = ['#combat-hud'];
    // Laid out (no display: none on it or above it) and not made invisible.
    const shown = (e: Element): boolean => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    const ownText = (e: Element): boolean => [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
    /** The box of an element's own text (not its full-width block). */
    const textBox = (e: Element): DOMRect => {
      const r = document.createRange();
      r.selectNodeContents(e);
      return r.getBoundingClientRect();
    };
    /** The text as drawn: the font size times every zoom above it (getComputedStyle gives it unzoomed). */
    const drawnPx = (e: Element): number => {
      const px = parseFloat(getComputedStyle(e).fontSize);
      const zoom = (e as HTMLElement & { currentCSSZoom?: number }).currentCSSZoom ?? 1;
      return px * zoom;
    };
    const name = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className ? `.${String(e.className).split(' ')[0]}` : ''} "${(e.textContent ?? '').trim().slice(0, 24)}"`;
    let smallest = Infinity;
    let texts = 0;
    const boxes: { group: string; label: string; box: DOMRect }[] = [];
    for (const sel of [...groups, ...moving]) {
      const root = document.querySelector(sel);
      if (!root || !shown(root)) continue;
      for (const e of [root, ...root.querySelectorAll('*')]) {
        if (!shown(e)) continue;
        const isCanvas = e instanceof HTMLCanvasElement;
        if (!ownText(e) && !isCanvas) continue;
        const box = isCanvas ? e.getBoundingClientRect() : textBox(e);
        if (box.width < 1 || box.height < 1) continue;
        if (!isCanvas) {
          texts++;
          const px = drawnPx(e);
          smallest = Math.min(smallest, px);
          if (px < minText - 0.01) problems.push(`${name(e)} is drawn in ${px.toFixed(1)} px`);
        }
        if (moving.includes(sel)) continue;
        if (box.left < -0.5 || box.top < -0.5 || box.right > vw + 0.5 || box.bottom > vh + 0.5) problems.push(`${name(e)} reaches outside the ${vw}x${vh} window`);
        boxes.push({ group: sel, label: name(e), box });
      }
    }
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (a.group === b.group) continue;
        const overlap = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left) > 0.5 && Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top) > 0.5;
        if (overlap) problems.push(`${a.label} (${a.group}) overlaps ${b.label} (${b.group})`);
      }
    }
    return { smallestTextPx: smallest, texts, problems };
  }, MIN_TEXT_PX);
}
