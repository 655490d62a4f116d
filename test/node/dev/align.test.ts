import { describe, expect, it } from 'vitest';
import { alignBlocks } from '../../../dev/align.js';

const P1 = 'The committee approved the new budget after a long debate on Tuesday evening.';
const P2 = 'Funding for public libraries will rise by twelve percent over the next two years.';
const P3 = 'Critics argued that the transport plan still lacks a clear timetable for delivery.';

const labelsOf = (blocks: string[], gt: string): number[] => Array.from(alignBlocks(blocks, gt).labels);

describe('alignBlocks', () => {
  it('labels exactly matching blocks as content and the rest as boilerplate', () => {
    const blocks = ['Home', 'News', P1, P2, 'Share this article', '© 2024 Example Media'];
    const r = alignBlocks(blocks, `${P1}\n\n${P2}`);
    expect(Array.from(r.labels)).toEqual([0, 0, 1, 1, 0, 0]);
    expect(r.coverage).toBe(1);
  });

  it('ignores whitespace and case differences, and typographic quotes', () => {
    const blocks = ['Menu', '  the COMMITTEE   approved the new budget ', 'after a long debate on Tuesday evening.', 'Login'];
    const r = alignBlocks(blocks, 'The committee approved the new budget\nafter a long debate on Tuesday evening.');
    expect(Array.from(r.labels)).toEqual([0, 1, 1, 0]);
    expect(labelsOf(['It’s a “test” of quotes and dashes — really'], `It's a "test" of quotes and dashes - really`)).toEqual([1]);
  });

  it('puts the 2/3 boundary strictly above floor(2n/3) of the non-whitespace characters', () => {
    // Block of 30 non-whitespace characters; the ground truth holds its first `k` characters (after a long unique
    // prefix that anchors the alignment). floor(2*30/3) = 20: 21 aligned characters make content, 20 do not.
    const prefix = 'Unique introduction sentence that anchors everything here. ';
    const block = 'abcdefghijklmnopqrstuvwxyz0123'; // 30 characters
    const blocks = [prefix, block];
    const with21 = alignBlocks(blocks, prefix + block.slice(0, 21)).labels[1];
    const with20 = alignBlocks(blocks, prefix + block.slice(0, 20)).labels[1];
    expect(with21).toBe(1);
    expect(with20).toBe(0);
  });

  it('labels text that the page shows in another order than the ground truth', () => {
    const blocks = [P3, 'Advertisement', P1, P2];
    const r = alignBlocks(blocks, `${P1}\n\n${P2}\n\n${P3}`);
    expect(Array.from(r.labels)).toEqual([1, 0, 1, 1]);
    expect(r.coverage).toBe(1);
    expect(r.stats.reorderedChars).toBeGreaterThan(0);
  });

  it('aligns repeated boilerplate phrases to the occurrence inside the content only', () => {
    const share = 'Share this story with your friends';
    const blocks = [share, P1, share, P2, share, 'Related posts'];
    // The ground truth contains the phrase once, between P1 and P2: the middle occurrence is content.
    const r = alignBlocks(blocks, `${P1}\n\n${share}\n\n${P2}`);
    expect(Array.from(r.labels)).toEqual([0, 1, 1, 1, 0, 0]);
    expect(r.coverage).toBe(1);
  });

  it('handles a page carrying two copies of the article by labelling one copy', () => {
    const blocks = ['Nav', P1, P2, 'Footer', P1, P2];
    const r = alignBlocks(blocks, `${P1}\n\n${P2}`);
    expect(r.coverage).toBe(1);
    const labels = Array.from(r.labels);
    expect(labels[0]).toBe(0);
    expect(labels[3]).toBe(0);
    // exactly one copy is content
    expect(labels[1] + labels[4]).toBe(1);
    expect(labels[2] + labels[5]).toBe(1);
  });

  it('aligns small edits inside gaps by dynamic programming', () => {
    // The page has a footnote marker and a changed word the ground truth lacks.
    const blocks = ['Top bar', 'The committee approved the new [1] budget after a long debate on Wednesday evening.', 'Bottom'];
    const r = alignBlocks(blocks, P1);
    expect(Array.from(r.labels)).toEqual([0, 1, 0]);
    expect(r.coverage).toBeGreaterThan(0.9);
    expect(r.coverage).toBeLessThan(1);
  });

  it('does not scatter ground-truth characters over unrelated boilerplate', () => {
    const blocks = ['Home', 'About', 'Contact', 'Sign in', 'Shop', 'Cart'];
    const r = alignBlocks(blocks, 'Something entirely different that is not on the page at all.');
    expect(Array.from(r.labels)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(r.coverage).toBeLessThan(0.2);
  });

  it('returns zero labels and zero coverage for an empty ground truth or no blocks', () => {
    const r = alignBlocks([P1, P2], '');
    expect(Array.from(r.labels)).toEqual([0, 0]);
    expect(r.coverage).toBe(0);
    const none = alignBlocks([], P1);
    expect(none.labels.length).toBe(0);
    expect(none.coverage).toBe(0);
    expect(Array.from(alignBlocks(['   ', P1], P1).labels)).toEqual([0, 1]);
  });

  it('handles unicode: accents, NFC/NFD, CJK, emoji', () => {
    const fr = 'Le conseil municipal a adopté le budget après un long débat à l’hôtel de ville.';
    const ja = '東京都は新しい予算案を可決しました。図書館の予算は十二パーセント増加します。';
    const emoji = 'Great news 🎉🎉 for everyone who loves reading 📚 books!';
    const blocks = ['Accueil', fr.normalize('NFD'), 'ログイン', ja, emoji, 'Ⓒ 2024'];
    const r = alignBlocks(blocks, `${fr}\n\n${ja}\n\n${emoji}`);
    expect(Array.from(r.labels)).toEqual([0, 1, 0, 1, 1, 0]);
    expect(r.coverage).toBe(1);
  });

  it('reports partial coverage when the ground truth has text the blocks lack', () => {
    const r = alignBlocks(['Nav', P1], `${P1}\n\n${P2}`);
    expect(Array.from(r.labels)).toEqual([0, 1]);
    expect(r.coverage).toBeGreaterThan(0.4);
    expect(r.coverage).toBeLessThan(0.6);
  });

  it('leaves gaps above the cell limit unaligned and counts them', () => {
    const blocks = ['x'.repeat(50) + 'The committee approved the budget', 'y'.repeat(50)];
    // Underscores instead of spaces: no 10-character window matches, so everything is left to the DP.
    const gt = 'The committee approved the budget';
    const r = alignBlocks(blocks, gt.replace(/ /g, '_'), { maxGapCells: 10 });
    expect(r.stats.gapsSkipped).toBeGreaterThan(0);
    expect(r.coverage).toBe(0);
    const ok = alignBlocks(blocks, gt.replace(/ /g, '_'));
    expect(ok.stats.gapsSkipped).toBe(0);
    expect(ok.coverage).toBeGreaterThan(0.5);
  });
});
