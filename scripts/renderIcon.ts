/**
 * Renders the application icon for the installers: `resources/icon.svg` (the
 * game's own ship-and-stars icon, also the page's favicon) drawn at 1024×1024
 * into `resources/icon.png`, with transparent corners. electron-builder makes
 * the Windows .ico, the macOS .icns and the Linux icon sizes from that PNG.
 *
 * It draws with the headless Chromium the e2e tests use (test/support/browser.ts:
 * CHROMIUM_PATH, a system Chromium or Chrome, or the npm-provided one), so no
 * image tool is needed. Run it after editing the SVG and commit both files:
 *
 *   npm run icon    (npx tsx scripts/renderIcon.ts)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '../test/support/browser';
import { repoRoot } from '../test/support/paths';

/** electron-builder wants at least 512×512 (macOS at least 1024 for its largest size). */
const SIZE = 1024;

const svgFile = join(repoRoot, 'resources', 'icon.svg');
const pngFile = join(repoRoot, 'resources', 'icon.png');

async function main(): Promise<void> {
  const svg = readFileSync(svgFile, 'utf8');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:transparent"><img id="icon" width="${SIZE}" height="${SIZE}" style="display:block" src="${src}"></body></html>`,
    );
    // A string, not a function: this file is checked without the DOM library.
    await page.waitForFunction("document.getElementById('icon').complete");
    const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
    writeFileSync(pngFile, png);
    console.log(`${pngFile}: ${SIZE}×${SIZE}, ${png.length} bytes`);
  } finally {
    await browser.close();
  }
}

await main();
