// Label passes that keep what belongs together: a section heading with the section it heads, a line of text whole,
// a figure's caption with the text around the figure.
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../../src/core/blocks/page.js';
import { keepFigureCaptions, keepLinesWhole, keepSectionHeadings } from '../../../src/core/blocks/whole.js';

const PROSE =
  'The key to shared mutable history is to keep your changesets in draft phase as you pass them around, and this ' +
  'section shows how to set that up on a server that everyone on the team can reach.';

/** Labels from the texts that start kept; probabilities from a map (0.1 when not named). */
function setup(html: string, kept: string[], probability: Record<string, number> = {}) {
  const page = parsePage(html);
  const labels = new Uint8Array(page.blocks.length);
  const probs = new Float32Array(page.blocks.length * 2);
  page.blocks.forEach((b, i) => {
    const t = b.text.trim();
    if (kept.includes(t)) labels[i] = 1;
    probs[i * 2 + 1] = probability[t] ?? 0.1;
    probs[i * 2] = 1 - probs[i * 2 + 1];
  });
  const keptTexts = () => page.blocks.filter((_, i) => labels[i] === 1).map((b) => b.text.trim());
  return { page, labels, probs, keptTexts };
}

describe('keepSectionHeadings', () => {
  const html =
    '<body><nav><h2>Menu</h2><a href="/a">Home</a></nav><h2><a href="#id5">Sharing</a><a class="headerlink" href="#s">¶</a></h2>' +
    `<h3><a href="#id6">Setting up</a></h3><p>${PROSE}</p><h2>Related</h2><p>Other story</p></body>`;

  it('keeps a dropped heading over kept text, and the heading above it, but not its permalink mark', () => {
    const { page, labels, probs, keptTexts } = setup(html, [PROSE], { Sharing: 0.48, 'Setting up': 0.4, Menu: 0.45 });
    keepSectionHeadings(page.blocks, page.leafInfo, labels, probs);
    expect(keptTexts()).toEqual(['Sharing', 'Setting up', PROSE]);
  });

  it('leaves a heading the classifier was sure of dropping, or one over dropped text', () => {
    const { page, labels, probs, keptTexts } = setup(html, [PROSE], { Sharing: 0.48, 'Setting up': 0.05, Related: 0.9 });
    keepSectionHeadings(page.blocks, page.leafInfo, labels, probs);
    expect(keptTexts()).toEqual([PROSE]);
  });
});

describe('keepLinesWhole', () => {
  const html =
    '<body><ol><li><span class="backlink"><a href="#cite_ref-65"><b>^</b></a></span> <cite>Larabel, Michael. ' +
    '<a href="https://www.phoronix.com/scan.php">"Servo Continues Making Progress For Shipping Components In Gecko"</a>. ' +
    '<i>Phoronix.com</i><span class="accessdate">. Retrieved <span class="nowrap">10 May</span> 2016</span>.</cite>' +
    '<span style="display:none">hidden COinS data</span></li></ol><p>Share</p></body>';

  it('keeps the punctuation and short pieces between the kept parts of a line, not its backlink or hidden text', () => {
    const { page, labels, probs: _p, keptTexts } = setup(html, [
      'Larabel, Michael.', '"Servo Continues Making Progress For Shipping Components In Gecko"', 'Phoronix.com',
    ]);
    keepLinesWhole(page.blocks, page.leafInfo, labels);
    const line = keptTexts().join(' ');
    expect(line).toContain('Phoronix.com');
    expect(line).toContain('Retrieved');
    expect(line).toContain('2016');
    expect(line).not.toContain('^');
    expect(line).not.toContain('hidden');
    expect(keptTexts()).not.toContain('Share');
  });

  it('leaves a line that is mostly dropped', () => {
    const { page, labels, keptTexts } = setup(html, ['Phoronix.com']);
    keepLinesWhole(page.blocks, page.leafInfo, labels);
    expect(keptTexts()).toEqual(['Phoronix.com']);
  });
});

describe('keepLinesWhole: the lines of one paragraph', () => {
  const LINE_1 = 'The harbour was quiet when the boats came back that evening,';
  const LINE_2 = 'nets empty';
  const LINE_3 = 'and the gulls circling over the pier where the children waited.';

  it('keeps a dropped line between kept lines of one paragraph (one <br> apart)', () => {
    const { page, labels, keptTexts } = setup(`<body><div>${LINE_1}<br>${LINE_2}<br>${LINE_3}</div></body>`, [LINE_1, LINE_3]);
    keepLinesWhole(page.blocks, page.leafInfo, labels);
    expect(keptTexts()).toEqual([LINE_1, LINE_2, LINE_3]);
  });

  it('leaves a line that is a paragraph of its own (two <br>) or all link ("Read entire review")', () => {
    const apart = setup(`<body><div>${LINE_1}<br><br>${LINE_2}<br><br>${LINE_3}</div></body>`, [LINE_1, LINE_3]);
    keepLinesWhole(apart.page.blocks, apart.page.leafInfo, apart.labels);
    expect(apart.keptTexts()).toEqual([LINE_1, LINE_3]);
    const more = setup(`<body><div>${LINE_1} ${LINE_3}<br><a href="/r/1">Read entire review</a></div></body>`, [`${LINE_1} ${LINE_3}`]);
    keepLinesWhole(more.page.blocks, more.page.leafInfo, more.labels);
    expect(more.keptTexts()).toEqual([`${LINE_1} ${LINE_3}`]);
  });
});

describe('keepFigureCaptions', () => {
  const AFTER = 'After the storm the crews worked through the night to clear the roads and restore power to the town.';
  const figure = (caption: string) =>
    `<body><article><p>${PROSE}</p><figure><img src="/a.jpg" alt="Roads"><figcaption>${caption}</figcaption></figure>` +
    `<p>${AFTER}</p></article><footer><p>Footer</p></footer></body>`;

  it('keeps a dropped caption whose figure sits between kept text', () => {
    const { page, labels, keptTexts } = setup(figure('Crews at work on Main Street. <small>Photo by Ann Lee</small>'), [PROSE, AFTER]);
    keepFigureCaptions(page.blocks, page.leafInfo, labels);
    expect(keptTexts()).toEqual([PROSE, 'Crews at work on Main Street.', 'Photo by Ann Lee', AFTER]);
  });

  it('leaves a caption when the text after the figure is dropped, and a figcaption of links (a product card)', () => {
    const tail = setup(figure('Crews at work on Main Street.'), [PROSE]);
    keepFigureCaptions(tail.page.blocks, tail.page.leafInfo, tail.labels);
    expect(tail.keptTexts()).toEqual([PROSE]);
    const card = setup(figure('<a class="button">Quick view</a> <a href="/p/1">Add to Cart</a>'), [PROSE, AFTER]);
    keepFigureCaptions(card.page.blocks, card.page.leafInfo, card.labels);
    expect(card.keptTexts()).toEqual([PROSE, AFTER]);
  });

  it('keeps the caption of a lead figure: above the first kept text, a credit and a byline between', () => {
    const lead = (between: string) =>
      `<body><header><h1>Storm hits the town</h1><figure><img src="/a.jpg" alt="Roads"><figcaption>Crews at work on Main Street.` +
      `</figcaption></figure>${between}</header><p>${AFTER}</p><p>${PROSE}</p></body>`;
    const byline = setup(lead('<p>By Ann Lee</p><time>May 2, 2024</time>'), [AFTER, PROSE]);
    keepFigureCaptions(byline.page.blocks, byline.page.leafInfo, byline.labels);
    expect(byline.keptTexts()).toEqual(['Crews at work on Main Street.', AFTER, PROSE]);
    // more dropped text than a credit and a byline between the figure and the article: not its picture
    const far = setup(lead(`<p>${'Subscribe to our newsletter for the latest stories. '.repeat(10)}</p>`), [AFTER, PROSE]);
    keepFigureCaptions(far.page.blocks, far.page.leafInfo, far.labels);
    expect(far.keptTexts()).toEqual([AFTER, PROSE]);
    // kept text above the figure: it does not open the content (and the text after it is dropped)
    const mid = setup(lead('<p>By Ann Lee</p>'), ['Storm hits the town', AFTER, PROSE]);
    keepFigureCaptions(mid.page.blocks, mid.page.leafInfo, mid.labels);
    expect(mid.keptTexts()).toEqual(['Storm hits the town', AFTER, PROSE]);
  });

  it('keeps a caption that is the only text of its figure (the block is merged up to the figure)', () => {
    const html = `<body><p>${PROSE}</p><figure><img src="/a.jpg" alt="Plot"><figcaption> Scatter plot </figcaption></figure><p>${AFTER}</p></body>`;
    const { page, labels, keptTexts } = setup(html, [PROSE, AFTER]);
    keepFigureCaptions(page.blocks, page.leafInfo, labels);
    expect(keptTexts()).toEqual([PROSE, 'Scatter plot', AFTER]);
  });

  it('leaves text of a figure outside its figcaption, and hidden caption text', () => {
    const html =
      `<body><p>${PROSE}</p><figure><img src="/a.jpg"><span class="credit">Credit Getty</span>` +
      `<figcaption>Crews at work.<span style="display:none">hidden data</span></figcaption></figure><p>${AFTER}</p></body>`;
    const { page, labels, keptTexts } = setup(html, [PROSE, AFTER]);
    keepFigureCaptions(page.blocks, page.leafInfo, labels);
    expect(keptTexts()).toEqual([PROSE, 'Crews at work.', AFTER]);
  });
});
