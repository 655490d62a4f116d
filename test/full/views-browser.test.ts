// The reader and debug views in headless Chromium (test/full/chromium.ts) at phone (390 px) and desktop (1280 px)
// widths: layout, themes, the CSS-only filter, the CSP; the screenshots are written to docs/images/ (the README
// shows them). Nothing leaves the page: images are answered with a placeholder, everything else is refused.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { READER_CSP } from '../../src/core/render/reader.js';
import { extract } from '../../src/hosts/node/lib.js';
import { PNG_SIGNATURE, launched } from './chromium.js';

const IMAGES = new URL('../../docs/images/', import.meta.url).pathname;
const FIXTURE = new URL('../fixtures/pages/docusaurus-docs/source.html', import.meta.url);
const PAGE_URL = 'https://docusaurus.io/docs/markdown-features/react';
const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
const PLACEHOLDER_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><rect width="100%" height="100%" fill="#b9c4cf"/><text x="50%" y="50%" font-family="sans-serif" font-size="48" fill="#4a5560" text-anchor="middle">image</text></svg>';

async function open(width: keyof typeof WIDTHS, colorScheme: 'light' | 'dark', html: string, csp?: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await (await launched()).newContext({ viewport: WIDTHS[width], colorScheme, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.route('**/*', (route) => {
    const request = route.request();
    if (request.url() === 'https://pith.test/view') return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: csp ? { 'content-security-policy': csp } : {}, body: html });
    if (request.resourceType() === 'image') return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: PLACEHOLDER_SVG });
    return route.abort();
  });
  await page.goto('https://pith.test/view', { waitUntil: 'load' });
  return { context, page };
}

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(IMAGES, { recursive: true });
  const path = join(IMAGES, name);
  await page.screenshot({ path });
  const png = readFileSync(path);
  expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  expect(png.length).toBeGreaterThan(5_000);
}

describe('reader view in chromium', () => {
  it('reads well at both widths, in light and dark, under READER_CSP, and screenshots', async () => {
    const extraction = await extract(readFileSync(FIXTURE, 'utf8'), { url: PAGE_URL, format: 'reader' });
    // a script slipped into the page must not run under the reader's CSP
    const html = extraction.readerHtml!.replace('</body>', '<script>document.title = "script ran"</script></body>');
    const backgrounds: string[] = [];
    for (const width of ['phone', 'desktop'] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        const { context, page } = await open(width, scheme, html, READER_CSP);
        try {
          expect(await page.title()).not.toBe('script ran');
          const layout = await page.evaluate(() => {
            const main = document.querySelector('main')!.getBoundingClientRect();
            const p = document.querySelector('.content p')!;
            const img = document.querySelector('.content img') as HTMLImageElement | null;
            return {
              scrollWidth: document.documentElement.scrollWidth,
              mainWidth: main.width,
              fontSize: parseFloat(getComputedStyle(p).fontSize),
              lineHeight: parseFloat(getComputedStyle(p).lineHeight),
              background: getComputedStyle(document.body).backgroundColor,
              imageWidth: img === null ? -1 : img.getBoundingClientRect().width,
              imageLoaded: img === null ? false : img.naturalWidth > 0,
              pre: document.querySelector('.content pre') === null ? null : getComputedStyle(document.querySelector('.content pre')!).overflowX,
              headline: document.querySelector('article header h1')?.textContent ?? '',
              original: document.querySelector('footer a')?.getAttribute('href') ?? '',
            };
          });
          expect(layout.scrollWidth).toBeLessThanOrEqual(WIDTHS[width].width); // nothing wider than the screen
          expect(layout.mainWidth).toBeLessThanOrEqual(640);
          expect(layout.fontSize).toBeGreaterThanOrEqual(17);
          expect(layout.lineHeight / layout.fontSize).toBeGreaterThan(1.4);
          expect(layout.imageLoaded).toBe(true);
          expect(layout.imageWidth).toBeLessThanOrEqual(layout.mainWidth);
          expect(layout.pre).toBe('auto');
          expect(layout.headline.length).toBeGreaterThan(0);
          expect(layout.original).toBe(PAGE_URL);
          backgrounds.push(layout.background);
          if ((width === 'phone' && scheme === 'light') || (width === 'desktop' && scheme === 'dark')) await shoot(page, `reader-${width}${scheme === 'dark' ? '-dark' : ''}.png`);
        } finally {
          await context.close();
        }
      }
    }
    expect(backgrounds[0]).not.toBe(backgrounds[1]); // light and dark differ
    expect(backgrounds[0]).toBe(backgrounds[2]);
  });
});

describe('debug view in chromium', () => {
  it('summary on top, a jump to the first kept block, folded dropped runs, a CSS-only filter; screenshots', async () => {
    const extraction = await extract(readFileSync(FIXTURE, 'utf8'), { url: PAGE_URL, format: 'debug' });
    const kept = extraction.blocks.filter((b) => b.label === 1).length;
    for (const width of ['phone', 'desktop'] as const) {
      const { context, page } = await open(width, 'light', extraction.debugHtml!, "default-src 'none'; style-src 'unsafe-inline'");
      try {
        const lead = await page.textContent('.lead');
        expect(lead).toContain(`${extraction.wordCount} words kept`);
        expect(lead).toContain(`decoder ${extraction.decoder}`);
        expect(lead).toContain(extraction.modelVersion);
        // Clicked in the page, not by mouse position: under load a position taken before a layout change can land on
        // another label.
        const activate = (selector: string): Promise<void> => page.$eval(selector, (el) => (el as HTMLElement).click());
        const visible = (selector: string): Promise<number> =>
          page.$$eval(selector, (els) => els.filter((el) => el.checkVisibility({ contentVisibilityAuto: true })).length);
        // folded: only kept blocks show at first; the page is shorter than with every run unfolded
        expect(await visible('li.block.kept')).toBe(kept);
        expect(await visible('li.block.dropped')).toBe(0);
        const foldedHeight = await page.evaluate(() => document.documentElement.scrollHeight);
        await shoot(page, `debug-${width}.png`);
        // the jump link scrolls to the first kept block
        await activate('nav.filter a');
        const first = await page.evaluate(() => {
          const target = document.querySelector(location.hash) as HTMLElement;
          return { kept: target.classList.contains('kept'), top: Math.round(target.getBoundingClientRect().top) };
        });
        expect(first.kept).toBe(true);
        expect(first.top).toBeLessThan(50);
        // the filter: only kept, only dropped, all
        await activate('label[for=show-kept]');
        expect(await visible('li.fold')).toBe(0);
        expect(await visible('li.block.kept')).toBe(kept);
        await activate('label[for=show-dropped]');
        expect(await visible('li.block.kept')).toBe(0);
        expect(await visible('li.fold')).toBeGreaterThan(0);
        await activate('label[for=show-all]');
        await page.$$eval('details', (els) => els.forEach((el) => ((el as HTMLDetailsElement).open = true)));
        // Chromium shows a just-opened <details>' content at its next rendering update, which a loaded machine delays.
        await page.waitForFunction(
          (n) => Array.from(document.querySelectorAll('li.block')).filter((el) => el.checkVisibility({ contentVisibilityAuto: true })).length === n,
          extraction.blocks.length,
          { timeout: 10_000 },
        ).catch(() => undefined);
        expect(await visible('li.block')).toBe(extraction.blocks.length);
        expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(foldedHeight);
      } finally {
        await context.close();
      }
    }
  });
});
