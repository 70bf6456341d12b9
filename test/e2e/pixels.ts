/* Lives beside the e2e tests, not in test/support: its page-side code needs the DOM types only the e2e build has. */
import type { Page } from 'playwright-core';

/** A rectangle in CSS pixels of the page (device scale factor 1). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How many pixels of each row of an image are lit, top row first. */
export type LitRows = number[];

/**
 * Counts, per pixel row, the pixels of `png` brighter than `threshold`
 * (0..255, the brightest of red, green and blue). The PNG is decoded by the
 * page's own canvas, so the test needs no image library; the page's content
 * security policy allows `data:` images.
 */
export async function litRows(page: Page, png: Buffer, threshold = 96): Promise<LitRows> {
  return page.evaluate(
    async ([b64, limit]) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64 as string}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('pixels: no 2-D canvas context in the page');
      ctx.drawImage(img, 0, 0);
      const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const rows: number[] = [];
      for (let y = 0; y < height; y++) {
        let lit = 0;
        for (let x = 0; x < width; x++) {
          const i = (y * width + x) * 4;
          if (Math.max(data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0) > (limit as number)) lit++;
        }
        rows.push(lit);
      }
      return rows;
    },
    [png.toString('base64'), threshold] as const,
  );
}

/** Takes a screenshot of `box` (rounded outwards to whole pixels) and returns its lit pixels per row. */
export async function litRowsIn(page: Page, box: Box, threshold?: number): Promise<LitRows> {
  const x = Math.floor(box.x);
  const y = Math.floor(box.y);
  const clip = { x, y, width: Math.ceil(box.x + box.width) - x, height: Math.ceil(box.y + box.height) - y };
  return litRows(page, await page.screenshot({ clip }), threshold);
}
