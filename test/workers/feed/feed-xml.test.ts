// The pure parts of the feed proxy: the element scanner and readFeed/spliceArticles, without any network.

import { describe, expect, it } from 'vitest';
import { readFeed, spliceArticles } from '../../../src/hosts/worker/feed/feed-xml';
import { scanElements, XmlScanError } from '../../../src/hosts/worker/feed/xml-scan';
import { PithError } from '../../../src/errors';
import { parseXml } from './helpers';

const BASE = 'https://example.com/feed.xml';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof PithError) return err.code;
    throw err;
  }
  return 'no error';
}

describe('scanElements', () => {
  it('gives the offsets of elements in the original text', () => {
    const xml = '<a x="1"><b>t</b><c/></a>';
    const [a, b, c] = scanElements(xml, 5);
    expect(a).toMatchObject({ name: 'a', start: 0, startTagEnd: 9, endTagStart: 21, end: 25, depth: 0, parent: -1 });
    expect(xml.slice(b.start, b.end)).toBe('<b>t</b>');
    expect(b.parent).toBe(0);
    expect(c).toMatchObject({ name: 'c', selfClosing: true, depth: 1 });
    expect(xml.slice(c.start, c.end)).toBe('<c/>');
  });

  it('does not see tags inside comments, CDATA, processing instructions, DOCTYPE subsets or attribute values', () => {
    const xml = [
      '<?xml version="1.0"?><?pi <item>?>',
      '<!DOCTYPE r [ <!ENTITY e "<item>]>"> <!-- ]> <item> --> ]>',
      '<!-- <item> -->',
      '<r><item a="x>y" b=\'</item>\'><![CDATA[</item><item>]]></item></r>',
    ].join('\n');
    const elements = scanElements(xml, 5);
    expect(elements.map((e) => e.name)).toEqual(['r', 'item']);
    const item = elements[1];
    expect(xml.slice(item.start, item.end)).toBe('<item a="x>y" b=\'</item>\'><![CDATA[</item><item>]]></item>');
  });

  it('records only down to maxDepth but still checks deeper tags', () => {
    expect(scanElements('<a><b><c><d/></c></b></a>', 1).map((e) => e.name)).toEqual(['a', 'b']);
    expect(() => scanElements('<a><b><c></b></c></a>', 1)).toThrow(XmlScanError);
  });

  it('refuses what it cannot follow', () => {
    for (const bad of ['<a>', '<a></b>', '<a/><b/>', 'text only', '<a><!-- x </a>', '<a><![CDATA[ </a>', '<a x="1></a>']) {
      expect(() => scanElements(bad, 3), bad).toThrow(XmlScanError);
    }
  });
});

describe('readFeed', () => {
  it('tells the kinds apart', () => {
    expect(readFeed('<rss version="2.0"><channel><title>t</title></channel></rss>', BASE, 10).kind).toBe('rss');
    expect(readFeed('<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title></feed>', BASE, 10).kind).toBe('atom');
    const rdf = '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel/></rdf:RDF>';
    expect(readFeed(rdf, BASE, 10).kind).toBe('rdf');
  });

  it('refuses what is not a feed with not_a_feed, broken XML with invalid_feed', () => {
    expect(codeOf(() => readFeed('', BASE, 10))).toBe('not_a_feed');
    expect(codeOf(() => readFeed('{"items": []}', BASE, 10))).toBe('not_a_feed');
    expect(codeOf(() => readFeed('<!doctype html><html><body><p>hi</p></body></html>', BASE, 10))).toBe('not_a_feed');
    expect(codeOf(() => readFeed('<svg xmlns="http://www.w3.org/2000/svg"/>', BASE, 10))).toBe('not_a_feed');
    expect(codeOf(() => readFeed('<feed xmlns="urn:not-atom"><entry/></feed>', BASE, 10))).toBe('not_a_feed');
    expect(codeOf(() => readFeed('<rss><item/></rss>', BASE, 10))).toBe('not_a_feed'); // no channel
    expect(codeOf(() => readFeed('<rss><channel><item></channel></rss>', BASE, 10))).toBe('invalid_feed');
    expect(codeOf(() => readFeed('<rss><channel><title>a & b</title></channel></rss>', BASE, 10))).toBe('invalid_feed');
    expect(codeOf(() => readFeed('<rss><channel/></rss><rss><channel/></rss>', BASE, 10))).toBe('invalid_feed');
  });

  it('reads links: <link>, a permalink guid, relative links against the feed URL; only for the first items', () => {
    const xml =
      '<rss><channel>' +
      '<item><link> /a?x=1&amp;y=2&#38;z=3 </link></item>' +
      '<item><guid>https://example.com/b</guid></item>' +
      '<item><guid isPermaLink="false">https://example.com/c</guid></item>' +
      '<item><link>javascript:alert(1)</link></item>' +
      '<item><link>https://example.com/e</link></item>' +
      '</channel></rss>';
    const feed = readFeed(xml, BASE, 4);
    expect(feed.items.map((i) => i.link)).toEqual(['https://example.com/a?x=1&y=2&z=3', 'https://example.com/b', null, null, null]);
  });

  it('Atom: the alternate HTML link wins over other rels and types', () => {
    const xml =
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry>' +
      '<link rel="self" href="https://example.com/self"/>' +
      '<link rel="alternate" type="application/pdf" href="https://example.com/pdf"/>' +
      '<link rel="alternate" type="text/html" href="https://example.com/html"/>' +
      '</entry><entry><link rel="alternate" type="application/pdf" href="/only-pdf"/></entry></feed>';
    expect(readFeed(xml, BASE, 10).items.map((i) => i.link)).toEqual(['https://example.com/html', 'https://example.com/only-pdf']);
  });

  it('a prefixed Atom feed gets a prefixed content element', () => {
    const xml = '<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:entry><a:link href="https://example.com/x"/><a:id>1</a:id></a:entry></a:feed>';
    const feed = readFeed(xml, BASE, 10);
    const out = spliceArticles(feed, new Map([[0, '<p>x</p>']]));
    expect(out).toBe('<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:entry><a:link href="https://example.com/x"/><a:id>1</a:id><a:content type="html"><![CDATA[<p>x</p>]]></a:content></a:entry></a:feed>');
  });
});

describe('spliceArticles', () => {
  it('uses the declared prefix of the content namespace, and a free one when "content" is taken', () => {
    const declared = '<rss xmlns:c="http://purl.org/rss/1.0/modules/content/"><channel><item><link>https://example.com/a</link></item></channel></rss>';
    expect(spliceArticles(readFeed(declared, BASE, 10), new Map([[0, 'A']]))).toContain('<c:encoded><![CDATA[A]]></c:encoded></item>');
    const taken = '<rss xmlns:content="urn:other"><channel><item><link>https://example.com/a</link></item></channel></rss>';
    const out = spliceArticles(readFeed(taken, BASE, 10), new Map([[0, 'A']]));
    expect(out).toContain('xmlns:content2="http://purl.org/rss/1.0/modules/content/"');
    expect(out).toContain('<content2:encoded><![CDATA[A]]></content2:encoded>');
    expect(parseXml(out)).toBeTruthy();
  });

  it('keeps "]]>" and drops characters XML forbids in the article', () => {
    const xml = '<rss><channel><item><link>https://example.com/a</link></item></channel></rss>';
    const out = spliceArticles(readFeed(xml, BASE, 10), new Map([[0, '<p>a]]>b\u0001c</p>']]));
    const parsed = parseXml(out);
    expect(parsed.rss.channel.item[0]['content:encoded'][0]).toBe('<p>a]]>bc</p>');
  });

  it('indents an inserted element like its siblings', () => {
    const xml = '<rss>\n  <channel>\n    <item>\n      <link>https://example.com/a</link>\n    </item>\n  </channel>\n</rss>';
    const out = spliceArticles(readFeed(xml, BASE, 10), new Map([[0, 'A']]));
    expect(out).toContain('      <link>https://example.com/a</link>\n      <content:encoded><![CDATA[A]]></content:encoded>\n    </item>');
  });

  it('changes nothing (not even the declaration of the content namespace) when no article is filled', () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<rss><channel><item><link>https://example.com/a</link></item></channel></rss>';
    expect(spliceArticles(readFeed(xml, BASE, 10), new Map())).toBe(xml);
  });
});
