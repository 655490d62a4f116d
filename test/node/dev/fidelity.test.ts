import { describe, expect, it } from 'vitest';
import { elementKeys, preKeptPartly, repeatsParagraph } from '../../../dev/fidelity.js';

const P = 'Did you know? Most readers see a quoted paragraph once, even when the page wraps it in a blockquote element.';
const Q = 'A second paragraph of the article that is long enough to be counted by the repeated-paragraph check at all.';

describe('repeatsParagraph', () => {
  it('counts a paragraph inside a blockquote once (the quote is not a paragraph of its own)', () => {
    expect(repeatsParagraph(`<blockquote><p>${P}</p></blockquote><p>${Q}</p>`, `${P}\n\n${Q}`)).toBe(false);
  });
  it('still finds a paragraph shown twice that the reference has once', () => {
    expect(repeatsParagraph(`<p>${P}</p><blockquote><p>${P}</p></blockquote>`, P)).toBe(true);
    expect(repeatsParagraph(`<p>${Q}</p><p>${Q}</p>`, Q)).toBe(true);
  });
  it('keeps a repeat the reference has as often', () => {
    expect(repeatsParagraph(`<p>${Q}</p><p>${Q}</p>`, `${Q}\n\n${Q}`)).toBe(false);
  });
});

describe('elementKeys: text as a reader sees it', () => {
  it('sets table cells, rows and paragraphs apart whether or not the markup has whitespace between them', () => {
    const tight = elementKeys('<blockquote><table><tr><th>Release</th><th>Date</th></tr><tr><td>4.2.3</td><td>April 2014</td></tr></table></blockquote>');
    const loose = elementKeys('<blockquote>\n<table>\n<tr>\n<th>Release</th>\n<th>Date</th>\n</tr>\n<tr><td>4.2.3</td> <td>April 2014</td></tr></table></blockquote>');
    expect(tight.blockquotes).toEqual(['Release Date 4.2.3 April 2014']);
    expect(loose.blockquotes).toEqual(tight.blockquotes);
    expect(elementKeys('<ul><li><p>One</p><p>Two</p></li></ul>')['list items']).toEqual(['One Two']);
    // inline markup inside a word stays inside it
    expect(elementKeys('<blockquote><b>W</b>ord and <i>it</i>alic</blockquote>').blockquotes).toEqual(['Word and italic']);
  });
});

describe('elementKeys: headings', () => {
  it('leaves a permalink anchor out of the heading text', () => {
    const keys = elementKeys('<h2><a href="#id5">Setting up</a><a href="#setting-up" title="Permalink">¶</a></h2><h3>Usage <a href="#usage">#</a></h3>');
    expect(keys.headings).toEqual(['Setting up', 'Usage']);
  });
  it('keeps a mark that is part of the text, or a link that leaves the page', () => {
    const keys = elementKeys('<h2>Clause § 4</h2><h2>C# <a href="https://example.com/c">#</a></h2>');
    expect(keys.headings).toEqual(['Clause § 4', 'C# #']);
  });
});

describe('preKeptPartly', () => {
  const page = (prose: string) =>
    `<body><p>${prose}</p><pre>nvm install 10.22.1\nnvm use 10.22.1\nnode -v // will show v10.22.1</pre><p>End of the article text.</p></body>`;
  it('counts a block of which the output has some lines but not all', () => {
    expect(preKeptPartly(page('Use nvm.'), 'Use nvm. nvm install 10.22.1 End of the article text.')).toEqual([1, 1]);
    expect(preKeptPartly(page('Use nvm.'), 'Use nvm. nvm install 10.22.1 nvm use 10.22.1 node -v // will show v10.22.1')).toEqual([0, 1]);
  });
  it('does not read a line the page quotes outside the block as the block kept', () => {
    // "nvm use 10.22.1" is in the prose too: the output has it from there, the block itself is dropped.
    expect(preKeptPartly(page('Then call nvm use 10.22.1 to switch.'), 'Then call nvm use 10.22.1 to switch.')).toEqual([0, 1]);
  });
});

describe('preKeptPartly and invisible characters', () => {
  it('finds a line whose zero-width space the text output leaves out', () => {
    const src = '<body><pre>6:58:35 AM: Build ready to start\n6:58:36 AM: \u200b\n6:58:37 AM: Done</pre></body>';
    expect(preKeptPartly(src, '6:58:35 AM: Build ready to start\n6:58:36 AM: \n6:58:37 AM: Done')).toEqual([0, 1]);
  });
});

describe('preKeptPartly and listings that repeat lines', () => {
  it('does not read lines another kept block has as this block kept', () => {
    const src = '<body><pre>let a = first();\nlet b = second();</pre><p>Then add a third line:</p><pre>let a = first();\nlet b = second();\nlet c = third();</pre></body>';
    // the output has the first block only: the second is dropped whole, its shared lines come from the first
    expect(preKeptPartly(src, 'let a = first();\nlet b = second();\nThen add a third line:')).toEqual([0, 0]);
    const three = '<body><pre>let a = first();\nlet b = second();</pre><pre>let a = first();\nlet c = third();\nlet d = fourth();</pre></body>';
    expect(preKeptPartly(three, 'let a = first();\nlet b = second();\nlet c = third();')).toEqual([1, 1]);
  });
});
