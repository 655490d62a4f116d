import { describe, expect, it } from 'vitest';
import { linkedomDocument } from '../../../dev/linkedom-document.js';
import type { DomElement, DomNode } from '../../../src/core/parse/dom.js';
import { safeUrl } from '../../../src/core/render/url-policy.js';
import { doc, htmlOf } from './helpers.js';

const ALLOWED_TAGS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'a', 'em', 'strong', 'b', 'i', 'code', 'pre',
  'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'img', 'figure', 'figcaption', 'br', 'hr', 'sup', 'sub',
  'dl', 'dt', 'dd',
]);
const ALLOWED_ATTRS = new Set(['href', 'src', 'alt', 'title', 'colspan', 'rowspan', 'class']);

/**
 * Re-parses the output with a full DOM (linkedom, for its selectors) and checks every element and attribute against
 * the allowlist; returns the element count.
 */
function assertClean(html: string): number {
  const document = linkedomDocument(`<!DOCTYPE html><html><body>${html}</body></html>`) as unknown as DomNode & {
    querySelectorAll(s: string): ArrayLike<DomElement & { attributes: ArrayLike<{ name: string; value: string }> }>;
  };
  const all = document.querySelectorAll('body *');
  for (let i = 0; i < all.length; i++) {
    const el = all[i];
    expect(ALLOWED_TAGS.has(el.localName), `tag <${el.localName}> in ${html}`).toBe(true);
    for (let j = 0; j < el.attributes.length; j++) {
      const { name, value } = el.attributes[j];
      expect(ALLOWED_ATTRS.has(name), `attribute ${name} in ${html}`).toBe(true);
      if (name === 'href') expect(value).toMatch(/^(?:https?:|mailto:|tel:|ftp:)/);
      if (name === 'src') expect(value).toMatch(/^https?:/);
      if (name === 'class') expect(value).toMatch(/^language-[A-Za-z0-9_+#.-]+$/);
    }
  }
  // raw tags only: escaped text and quoted attribute values may mention anything
  const tags = html.match(/<[^>]*>/g) ?? [];
  for (const tag of tags) {
    const bare = tag.replace(/"[^"]*"/g, '""');
    expect(bare).not.toMatch(/<\/?(?:script|style|svg|math|iframe|object|embed|form|input|meta|link|base)\b|\son\w+\s*=|\sstyle\s*=/i);
  }
  expect(html).not.toMatch(/javascript:|vbscript:|data:/i);
  return all.length;
}

describe('renderHtml: structure', () => {
  it('keeps allowlisted structure with absolute URLs and escaped text', () => {
    const out = htmlOf(
      doc(
        '<nav>Menu</nav><article><h1>Title &amp; more</h1><p class="lead" id="x" style="color:red">A <a href="/p?a=1&amp;b=&quot;2&quot;" target="_blank" rel="noopener">link</a> &lt;not a tag&gt;</p>' +
          '<ul><li>one</li></ul><pre class="language-ts"><code>let a = 1 &lt; 2;</code></pre>' +
          '<table><tr><th>h</th><th>i</th></tr><tr><td colspan="2" width="50">c</td></tr></table>' +
          '<figure><img data-src="/i.jpg" alt="x &quot;y&quot;"><figcaption>cap</figcaption></figure></article>',
      ),
      /Menu/,
    );
    expect(out).toBe(
      '<h1>Title &amp; more</h1>\n' +
        '<p>A <a href="https://example.com/p?a=1&amp;b=%222%22">link</a> &lt;not a tag&gt;</p>\n' +
        '<ul>\n<li>one</li>\n</ul>\n' +
        '<pre><code class="language-ts">let a = 1 &lt; 2;</code></pre>\n' +
        '<table>\n<tbody>\n<tr>\n<th>h</th><th>i</th></tr>\n<tr>\n<td colspan="2">c</td></tr>\n</tbody>\n</table>\n' +
        '<figure>\n<img src="https://example.com/i.jpg" alt="x &quot;y&quot;"><figcaption>cap</figcaption>\n</figure>',
    );
    assertClean(out);
  });

  it('drops the text of dropped blocks and the elements left empty', () => {
    const out = htmlOf(doc('<div><p>keep</p><p>Share on Twitter</p><ul><li>Share</li></ul></div>'), /Share/);
    expect(out).toBe('<p>keep</p>');
  });
});

describe('renderHtml: sanitiser', () => {
  const cases: Array<[string, string]> = [
    ['script in the content', '<p>text<script>alert(1)</script> more</p><script>document.write("x")</script>'],
    ['javascript: href', '<p><a href="javascript:alert(1)">a</a></p>'],
    ['javascript: in upper case with spaces', '<p><a href="  JAVASCRIPT:alert(1)">a</a></p>'],
    ['javascript: split by an entity tab', '<p><a href="java&#x09;script:alert(1)">a</a></p>'],
    ['javascript: split by a newline entity', '<p><a href="java&#10;script:alert(1)">a</a></p>'],
    ['javascript: fully entity-encoded', '<p><a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">a</a></p>'],
    ['javascript: with a leading control character', '<p><a href="&#1;javascript:alert(1)">a</a></p>'],
    ['vbscript:', '<p><a href="vbscript:msgbox(1)">a</a></p>'],
    ['data: link', '<p><a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">a</a></p>'],
    ['data: image', '<p>x <img src="data:image/svg+xml,<svg onload=alert(1)>"> y</p>'],
    ['event handlers', '<p onclick="alert(1)" onmouseover="alert(2)">t <b onmouseenter="x()">b</b><img src="/a.png" onerror="alert(1)"></p>'],
    ['style attribute and element', '<p style="background:url(javascript:alert(1))">t</p><style>p{}</style>'],
    ['svg with script', '<p>t</p><svg><script>alert(1)</script><text>svg text</text></svg>'],
    ['svg link', '<p>t <svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg></p>'],
    ['math namespace confusion', '<p>t</p><math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
    ['iframe and object', '<p>t</p><iframe src="https://evil.example"></iframe><object data="x.swf"></object><embed src="x">'],
    ['form controls', '<form action="javascript:alert(1)"><p>t</p><input value="x" onfocus="alert(1)" autofocus><button formaction="javascript:alert(1)">go</button></form>'],
    ['base href javascript', '<p><a href="rel">t</a></p>'],
    ['attribute breakout in alt and title', '<p><img src="/a.png" alt="&quot; onerror=&quot;alert(1)" title="\'><script>x</script>"> t</p>'],
    ['text that looks like markup', '<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;</p>'],
    ['noscript and template', '<p>t</p><noscript><p>ns</p><img src="/n.png"></noscript><template><script>x</script></template>'],
    ['meta refresh and link', '<p>t</p><meta http-equiv="refresh" content="0;url=javascript:alert(1)"><link rel="import" href="x">'],
    ['srcset javascript', '<p>t <img srcset="javascript:alert(1) 2x" src="/ok.png"></p>'],
    ['class and id', '<p class="x" id="y" data-x="1" aria-label="z">t</p><pre class="language-js&quot; onload=&quot;x"><code>c</code></pre>'],
  ];
  for (const [name, body] of cases) {
    it(name, () => {
      const out = htmlOf(doc(body, name === 'base href javascript' ? '<base href="javascript:alert(1)//">' : ''));
      assertClean(out);
      // the two text cases keep "alert(" as escaped text; everywhere else it must be gone
      if (!/text that looks|attribute breakout/.test(name)) expect(out).not.toContain('alert(');
    });
  }

  it('keeps an image after the last kept block', () => {
    expect(htmlOf(doc('<article><p>The bridge reopened on Saturday.</p><img src="/bridge.jpg" alt="The bridge"></article>'))).toBe(
      '<p>The bridge reopened on Saturday.</p>\n<p><img src="https://example.com/bridge.jpg" alt="The bridge"></p>',
    );
  });

  it('unsafe links keep their text', () => {
    const out = htmlOf(doc('<p>go <a href="JaVaScRiPt:alert(1)">here</a> now</p>'));
    expect(out).toBe('<p>go here now</p>');
  });

  it('escaped text stays text', () => {
    const out = htmlOf(doc('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; "q"</p>'));
    expect(out).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; "q"</p>');
  });

  it('an unusable code language is dropped', () => {
    const out = htmlOf(doc('<pre class="language-js&quot; onload=&quot;x"><code>c</code></pre>'));
    expect(out).toBe('<pre><code>c</code></pre>');
  });
});

describe('safeUrl', () => {
  it('resolves, and allows only the listed schemes', () => {
    const base = 'https://example.com/a/b.html';
    expect(safeUrl('c.html', base, 'link')).toBe('https://example.com/a/c.html');
    expect(safeUrl('//cdn.example.org/x', base, 'image')).toBe('https://cdn.example.org/x');
    expect(safeUrl('mailto:a@b.c', base, 'link')).toBe('mailto:a@b.c');
    expect(safeUrl('mailto:a@b.c', base, 'image')).toBeNull();
    expect(safeUrl('java\tscript:alert(1)', base, 'link')).toBeNull();
    expect(safeUrl('\u0000 javascript:alert(1)', base, 'link')).toBeNull();
    expect(safeUrl('file:///etc/passwd', base, 'link')).toBeNull();
    expect(safeUrl('', base, 'link')).toBeNull();
  });

  it('without a base: relative stays relative, schemes are still checked', () => {
    expect(safeUrl('/x/y', null, 'link')).toBe('/x/y');
    expect(safeUrl('https://x.org', null, 'link')).toBe('https://x.org/');
    expect(safeUrl('javascript:alert(1)', null, 'link')).toBeNull();
    expect(safeUrl('java\nscript:alert(1)', null, 'link')).toBeNull();
    expect(safeUrl('weird:thing', null, 'link')).toBeNull();
  });
});
