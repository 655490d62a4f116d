import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { titleMatches, titleMatchesWithoutSite } from '../../../dev/metadata-match.js';
import { readReadabilityFile } from '../../../dev/readability-pages.js';

describe('titleMatchesWithoutSite', () => {
  it('accepts the expected title with site, section or author parts cut off its ends', () => {
    expect(titleMatches('Mozilla', 'Mozilla - Wikipedia')).toBe(false);
    expect(titleMatchesWithoutSite('Mozilla', 'Mozilla - Wikipedia')).toBe(true);
    expect(titleMatchesWithoutSite('Samantha and The Great Big Lie', 'Samantha and The Great Big Lie - John C. Welch - Medium')).toBe(true);
    expect(titleMatchesWithoutSite('LWN.net Weekly Edition for March 26, 2015', 'LWN.net Weekly Edition for March 26, 2015 [LWN.net]')).toBe(true);
    expect(titleMatchesWithoutSite('宇航员在太空中喝酒会怎么样？后果很严重', '宇航员在太空中喝酒会怎么样？后果很严重 _探索者 _光明网')).toBe(true);
  });
  it('does not accept a site name alone, a part from the middle, or an unrelated title', () => {
    expect(titleMatchesWithoutSite('Wikipedia', 'Mozilla - Wikipedia')).toBe(false);
    expect(titleMatchesWithoutSite('Medium', 'Samantha and The Great Big Lie - John C. Welch - Medium')).toBe(false);
    expect(titleMatchesWithoutSite('John C. Welch', 'Samantha and The Great Big Lie - John C. Welch - Medium')).toBe(false);
    expect(titleMatchesWithoutSite('Something else entirely', 'Mozilla - Wikipedia')).toBe(false);
    expect(titleMatchesWithoutSite(null, 'Mozilla - Wikipedia')).toBe(false);
  });
  it('cuts a leading part as long as the rest only when it is the site name', () => {
    expect(titleMatchesWithoutSite('Headline', 'Example - Headline')).toBe(false);
    expect(titleMatchesWithoutSite('Headline', 'Example - Headline', 'Example')).toBe(true);
  });
});

describe('readReadabilityFile', () => {
  it('reads a page as UTF-8 whatever its meta charset says', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pith-rd-'));
    mkdirSync(join(dir, 'qq'));
    const html = '<html><head><meta charset="gb2312"><title>人工智能迈上新台阶</title></head><body></body></html>';
    writeFileSync(join(dir, 'qq', 'source.html.gz'), gzipSync(Buffer.from(html, 'utf8')));
    expect(readReadabilityFile('qq', 'source.html.gz', dir)).toBe(html);
  });
});
