import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTAINER_MODEL, deepestOfTopK, loadContainerModel, predictContainer, scoreCandidates } from '../../../src/core/model/container-model.js';
import { CONTAINER_FEATURES, PATENT_FEATURES, blocksInside, containerCandidates } from '../../../src/core/features/container.js';
import { parsePage } from '../../../src/core/blocks/page.js';
import { extract } from '../../../src/hosts/node/lib.js';
import type { CdomNode } from '../../../src/types.js';

// body > [div#nav > a, a] [div#main > article > h1, p, p(b), img, br, section > p, p]
const HTML =
  '<html><head><title>Green Tea Benefits</title></head><body>' +
  '<div id="nav"><a href="/">Home</a><a href="/about">About</a></div>' +
  '<div id="main"><article><h1>Green tea benefits</h1><p>Green tea is good.</p><p>It has <b>benefits</b> for you.</p>' +
  '<img src="tea.jpg"><br><section><p>Drink tea.</p><p>Every day.</p></section></article></div>' +
  '</body></html>';

const byId = (cands: ReturnType<typeof containerCandidates>, id: string): ReturnType<typeof containerCandidates>[number] => {
  const c = cands.find((x) => x.node.ids.includes(id));
  if (!c) throw new Error(`no candidate with id ${id}`);
  return c;
};
const feature = (f: Float64Array, name: string): number => f[CONTAINER_FEATURES.indexOf(name)];

describe('container features (the patent four)', () => {
  const page = parsePage(HTML);
  const cands = containerCandidates(page);

  it('candidates are the internal CDOM nodes, root first', () => {
    expect(cands[0].node).toBe(page.root);
    expect(cands.every((c) => c.node.children.length >= 2)).toBe(true);
    // body, div#nav, div#main>article (one merged chain), p with <b>, section
    expect(cands).toHaveLength(5);
    expect(PATENT_FEATURES).toEqual(CONTAINER_FEATURES.slice(0, 4));
  });

  it('depth counts elements up to <html>; the chain is measured at its bottom element', () => {
    expect(feature(cands[0].features, 'depth')).toBe(1); // body
    expect(feature(byId(cands, 'nav').features, 'depth')).toBe(2);
    const main = byId(cands, 'main');
    expect(main.node.tags.slice(0, 2)).toEqual(['div', 'article']);
    expect(feature(main.features, 'depth')).toBe(3); // the <article>
  });

  it('child tags are the direct children from the patent list', () => {
    // article: h1, p, p, img, br count; section does not
    expect(feature(byId(cands, 'main').features, 'n_child_tags')).toBe(5);
    expect(feature(byId(cands, 'nav').features, 'n_child_tags')).toBe(2);
    expect(feature(cands[0].features, 'n_child_tags')).toBe(2); // body: two divs
  });

  it('text density is candidate characters over page characters', () => {
    // Home 4 + About 5; Green tea benefits 18, Green tea is good. 18, "It has " 6 + benefits 8 + " for you." 8
    // (trimmed per leaf: 6, 8, 8), Drink tea. 10, Every day. 10
    const main = 18 + 18 + 6 + 8 + 8 + 10 + 10;
    const total = main + 9;
    expect(page.root!.props.nCharacters).toBe(total);
    expect(feature(byId(cands, 'main').features, 'text_density')).toBeCloseTo(main / total, 12);
    expect(feature(byId(cands, 'nav').features, 'text_density')).toBeCloseTo(9 / total, 12);
    expect(feature(cands[0].features, 'text_density')).toBe(1);
  });

  it('title overlap is title words in the text over words in the text', () => {
    // title words {green, tea, benefits}; main: green tea benefits (3/3), green tea is good (2/4),
    // it has benefits for you (1/5), drink tea (1/2), every day (0/2) -> 7/16
    expect(feature(byId(cands, 'main').features, 'title_overlap')).toBeCloseTo(7 / 16, 12);
    expect(feature(byId(cands, 'nav').features, 'title_overlap')).toBe(0);
    expect(feature(cands[0].features, 'title_overlap')).toBeCloseTo(7 / 18, 12);
    const untitled = containerCandidates(parsePage(HTML.replace('<title>Green Tea Benefits</title>', '')));
    expect(untitled.every((c) => feature(c.features, 'title_overlap') === 0)).toBe(true);
  });

  it('extras: link density and relative depth', () => {
    expect(feature(byId(cands, 'nav').features, 'link_density')).toBe(1);
    expect(feature(byId(cands, 'main').features, 'link_density')).toBe(0);
    const section = cands.find((c) => c.node.tags[0] === 'section')!;
    expect(feature(section.features, 'depth')).toBe(4);
    expect(feature(section.features, 'relative_depth')).toBe(1);
  });

  it('a page without text has no candidates and no container', () => {
    const empty = parsePage('<html><body><img src=x></body></html>');
    expect(containerCandidates(empty)).toEqual([]);
    expect(predictContainer(empty)).toEqual({ node: null, score: 0 });
  });
});

describe('deepest of the top k', () => {
  it('picks the deepest among the k best scores', () => {
    const scores = [0.9, 0.8, 0.7, 0.1];
    const depths = [1, 3, 2, 9];
    expect(deepestOfTopK(scores, depths, 1)).toBe(0);
    expect(deepestOfTopK(scores, depths, 2)).toBe(1);
    expect(deepestOfTopK(scores, depths, 3)).toBe(1);
    expect(deepestOfTopK(scores, depths, 4)).toBe(3);
    expect(deepestOfTopK(scores, depths, 10)).toBe(3);
    expect(deepestOfTopK([], [], 5)).toBe(-1);
  });

  it('breaks depth ties by score', () => {
    expect(deepestOfTopK([0.5, 0.9, 0.7], [2, 2, 2], 3)).toBe(1);
  });
});

describe('container model', () => {
  const page = parsePage(HTML);
  const cands = containerCandidates(page);

  it('applies a hand-made logistic model exactly, averaging an ensemble', () => {
    const one = loadContainerModel({ featureNames: ['text_density'], mean: [0.5], std: [0.25], models: [{ weights: [2], bias: -1 }], k: 1 });
    const d = feature(cands[1].features, 'text_density');
    const s = scoreCandidates(cands, one);
    expect(s[1]).toBeCloseTo(1 / (1 + Math.exp(-(2 * ((d - 0.5) / 0.25) - 1))), 14);
    const two = loadContainerModel({
      featureNames: ['text_density'], mean: [0.5], std: [0.25], models: [{ weights: [2], bias: -1 }, { weights: [0], bias: 0 }], k: 1,
    });
    expect(scoreCandidates(cands, two)[1]).toBeCloseTo((s[1] + 0.5) / 2, 14);
  });

  it('says what is wrong with a bad model file', () => {
    expect(() => loadContainerModel({ featureNames: ['tag_count'], mean: [0], std: [1], models: [{ weights: [1], bias: 0 }], k: 4 }))
      .toThrow(/feature "tag_count" is not computed/);
    expect(() => loadContainerModel({ featureNames: ['depth'], mean: [0], std: [1], models: [{ weights: [1, 2], bias: 0 }], k: 4 }))
      .toThrow(/1 weights/);
    expect(() => loadContainerModel(null)).toThrow(expect.objectContaining({ name: 'PithError', code: 'model_mismatch' }));
  });

  it('with k = 1 the best candidate wins; with a larger k a deeper one of the top k', () => {
    // scores rise with density: body (1.0) > main (0.87) > section > ...
    const m = loadContainerModel({ featureNames: ['text_density'], mean: [0], std: [1], models: [{ weights: [8], bias: -4 }], k: 1 });
    expect(predictContainer(page, m).node).toBe(page.root);
    const main = byId(cands, 'main').node;
    expect(predictContainer(page, m, 2).node).toBe(main);
    const inside = blocksInside(page, main);
    expect(Array.from(inside)).toEqual([0, 0, 1, 1, 1, 1, 1, 1, 1]);
    expect(page.blocks.filter((_, i) => inside[i] === 1).map((b: CdomNode) => b.text.trim())[0]).toBe('Green tea benefits');
  });

  it('the shipped models/container.json loads, is dated, carries its k and scores deterministically', () => {
    const raw = JSON.parse(readFileSync(new URL('../../../models/container.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    expect(raw.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(CONTAINER_MODEL.k).toBe(raw.k);
    expect(CONTAINER_MODEL.k).toBeGreaterThanOrEqual(1);
    expect(raw.kPatent).toBeGreaterThanOrEqual(4);
    expect(raw.kPatent).toBeLessThanOrEqual(6);
    expect(CONTAINER_MODEL.featureNames).toEqual(raw.featureNames);
    expect(raw.metrics).toBeTypeOf('object');
    const a = scoreCandidates(cands);
    const b = scoreCandidates(containerCandidates(parsePage(HTML)));
    expect(Array.from(a)).toEqual(Array.from(b));
    for (const p of a) expect(p > 0 && p < 1).toBe(true);
    const pred = predictContainer(page);
    expect(pred.node).not.toBeNull();
    expect(pred.score).toBe(a[cands.findIndex((c) => c.node === pred.node)]);
  });
});

describe('debug view marks the predicted container', () => {
  it('names the container and marks exactly its blocks', async () => {
    const ex = await extract(HTML, { format: 'debug' });
    const page = parsePage(HTML);
    const pred = predictContainer(page);
    const inside = blocksInside(page, pred.node);
    const html = ex.debugHtml ?? '';
    expect(html).toContain('class="container"');
    expect(html).toContain(`score ${pred.score.toFixed(2)}`);
    const marked = [...html.matchAll(/<li class="([^"]*)" data-index="(\d+)"/g)]
      .filter((m) => m[1].split(' ').includes('in-container'))
      .map((m) => Number(m[2]));
    expect(marked).toEqual([...inside.keys()].filter((i) => inside[i] === 1));
    expect(marked.length).toBeGreaterThan(0);
  });
});
