// The one presenter (src/core/render/present.ts): each format's body and media type, the one JSON shape, and what a
// host must have the core render for a format.

import { describe, expect, it } from 'vitest';
import { CONTENT_TYPE, extractionJson, present, renderOptionsFor } from '../../../src/core/render/present.js';
import { extract } from '../../../src/hosts/node/lib.js';
import { FORMATS } from '../../../src/types.js';

const PAGE =
  '<!doctype html><html lang="en"><head><title>Tea &amp; "biscuits"</title></head><body><nav>Home News Sport</nav><article><h1>Tea &amp; "biscuits"</h1>' +
  '<p>The village tea room reopened on Saturday after a long winter of repairs to its roof and its kitchen.</p>' +
  '<p>Regulars said the scones were as good as ever, and the queue reached the church by noon.</p></article></body></html>';

describe('present', () => {
  it('gives every format a body and its media type', async () => {
    const x = await extract(PAGE, { url: 'https://example.com/tea', format: 'json' });
    const debug = await extract(PAGE, { format: 'debug' });
    const reader = await extract(PAGE, { url: 'https://example.com/tea', format: 'reader' });
    for (const format of FORMATS) {
      const out = present(format, format === 'debug' ? debug : format === 'reader' ? reader : x, { url: 'https://example.com/tea' });
      expect(out.contentType, format).toBe(CONTENT_TYPE[format]);
      expect(out.body.length, format).toBeGreaterThan(0);
    }
    expect(present('text', x).body).toBe(`${x.text}\n`);
    expect(present('markdown', x).body).toBe(x.markdown!.endsWith('\n') ? x.markdown : `${x.markdown}\n`);
  });

  it('wraps html in a standalone document with the title escaped and the source as canonical', async () => {
    const x = await extract(PAGE, { url: 'https://example.com/tea', format: 'html' });
    const body = present('html', x, { url: 'https://example.com/tea?a=1&b=2' }).body;
    expect(body.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(body).toContain('<title>Tea &amp; "biscuits"</title>');
    expect(body).toContain('<link rel="canonical" href="https://example.com/tea?a=1&amp;b=2">');
    expect(body).toContain(`<article>\n${x.html}\n</article>`);
  });

  it('refuses a format the core did not render, with not_acceptable', async () => {
    const x = await extract(PAGE, { format: 'text' });
    for (const format of ['markdown', 'html', 'debug', 'reader'] as const) expect(() => present(format, x), format).toThrow(expect.objectContaining({ code: 'not_acceptable' }));
  });

  it('has one JSON shape: optional fields only when rendered or asked for, stages that add up', async () => {
    const lean = await extract(PAGE, renderOptionsFor('json'));
    const json = extractionJson(lean, { url: 'https://example.com/tea', encoding: 'utf-8', fetchMs: 12 });
    expect(Object.keys(json)).toEqual([
      'url', 'finalUrl', 'title', 'metadata', 'text', 'wordCount', 'fingerprint', 'modelVersion', 'featureSet', 'decoder',
      'truncated', 'encoding', 'timings',
    ]);
    expect(json).toMatchObject({ url: 'https://example.com/tea', finalUrl: 'https://example.com/tea', encoding: 'utf-8' });
    expect(json.fingerprint).toEqual(lean.fingerprint);
    const { fetchMs, totalMs, domMs, ...stages } = json.timings as unknown as Record<string, number>;
    expect(fetchMs).toBe(12);
    expect(domMs).toBeLessThanOrEqual(stages.parseMs);
    for (const ms of Object.values(json.timings)) expect(Math.round(ms * 100) / 100).toBe(ms);
    expect(Object.values(stages).reduce((a, b) => a + b, 0)).toBeCloseTo(totalMs, 6);

    const full = extractionJson(await extract(PAGE, { format: 'json' }), { blocks: true });
    expect(Object.keys(full)).toEqual([
      'url', 'finalUrl', 'title', 'metadata', 'text', 'markdown', 'html', 'wordCount', 'fingerprint', 'modelVersion',
      'featureSet', 'decoder', 'truncated', 'timings', 'blocks',
    ]);
    expect(full).toMatchObject({ url: null, finalUrl: null, timings: { fetchMs: 0 } });
    expect(JSON.parse(present('json', lean).body)).toEqual(JSON.parse(JSON.stringify(extractionJson(lean))));
  });

  it('asks the core for no more than a format needs', () => {
    expect(renderOptionsFor('json')).toEqual({ format: 'text', fingerprint: true });
    expect(renderOptionsFor('markdown')).toEqual({ format: 'markdown', fingerprint: false });
  });
});
