// The debug view in a real headless browser (Debian's chromium, test/full/chromium.ts). Checks the highlighting
// by computed style and keeps a screenshot.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extract } from '../../src/hosts/node/lib.js';
import { parsePage } from '../../src/core/blocks/page.js';
import { renderDebugHtml } from '../../src/core/render/debug.js';
import { ARTICLE_PAGE, extractionFromLabels } from '../node/render/debug-helpers.js';
import { PNG_SIGNATURE, launched } from './chromium.js';

const KEPT_BACKGROUND = 'rgb(223, 243, 228)';
const DROPPED_BACKGROUND = 'rgb(246, 246, 246)';

let outDir: string | undefined;

/** Where a screenshot goes (a temp folder, removed after the run unless PITH_KEEP_SCREENSHOTS is set). */
function screenshotPath(name: string): string {
  outDir ??= mkdtempSync(join(tmpdir(), 'pith-debug-'));
  return join(outDir, name);
}

afterAll(() => {
  if (outDir && !process.env.PITH_KEEP_SCREENSHOTS) rmSync(outDir, { recursive: true, force: true });
});

interface Row {
  label: string;
  background: string;
  border: string;
  barFraction: number;
  probability: number;
}

async function rowsOf(html: string, screenshot?: string): Promise<Row[]> {
  const context = await (await launched()).newContext({ viewport: { width: 1100, height: 800 }, offline: true });
  try {
    const page = await context.newPage();
    // nothing may leave the page: the view is self-contained
    await page.route('**/*', (route) => route.abort());
    await page.setContent(html, { waitUntil: 'load' });
    // runs of dropped blocks are folded: unfold them to measure every row
    await page.$$eval('details', (els) => els.forEach((el) => ((el as HTMLDetailsElement).open = true)));
    const rows = await page.$$eval('li.block', (els) =>
      els.map((el) => {
        const style = getComputedStyle(el);
        const bar = el.querySelector('.bar') as HTMLElement;
        const fill = el.querySelector('.bar > i') as HTMLElement;
        return {
          label: el.getAttribute('data-label') ?? '',
          background: style.backgroundColor,
          border: style.borderLeftColor,
          barFraction: fill.getBoundingClientRect().width / bar.getBoundingClientRect().width,
          probability: Number(el.getAttribute('data-probability')),
        };
      }),
    );
    if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
    return rows;
  } finally {
    await context.close();
  }
}

describe('debug view in chromium', () => {
  it('highlights kept blocks, greys dropped ones, draws probability bars, and screenshots', async () => {
    const { extraction, page } = extractionFromLabels(ARTICLE_PAGE, /Home|News|About|Related|rail apps|©|Privacy/);
    const shot = screenshotPath('debug-labels.png');
    const rows = await rowsOf(renderDebugHtml(extraction, page), shot);

    expect(rows.length).toBe(extraction.blocks.length);
    expect(rows.filter((r) => r.label === '1').length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.label === '0').length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.background).toBe(r.label === '1' ? KEPT_BACKGROUND : DROPPED_BACKGROUND);
      expect(r.barFraction).toBeCloseTo(r.probability, 1);
    }
    const kept = rows.find((r) => r.label === '1')!;
    const dropped = rows.find((r) => r.label === '0')!;
    expect(kept.border).not.toBe(dropped.border);

    const png = readFileSync(shot);
    expect(png.length).toBeGreaterThan(5_000);
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  });

  it('renders the real pipeline output consistently', async () => {
    const extraction = await extract(ARTICLE_PAGE, { url: 'https://rail.example/night-trains' });
    const page = parsePage(ARTICLE_PAGE, { url: 'https://rail.example/night-trains' });
    const shot = screenshotPath('debug-model.png');
    const rows = await rowsOf(renderDebugHtml(extraction, page), shot);
    expect(rows.length).toBe(extraction.blocks.length);
    for (const [i, r] of rows.entries()) {
      expect(r.label).toBe(String(extraction.blocks[i].label));
      expect(r.background).toBe(r.label === '1' ? KEPT_BACKGROUND : DROPPED_BACKGROUND);
    }
    expect(readFileSync(shot).subarray(0, 8).equals(Buffer.from(PNG_SIGNATURE))).toBe(true);
  });
});
