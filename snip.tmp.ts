import { extract } from './src/lib.js';
for (const h of [
 '<a href="/a"><div>Alpha section</div></a><a href="/b"><div>Beta section</div></a>',
 '<table><tr><th>Model</th><th>Price</th></tr><tr><td>A1</td><td>$5</td></tr></table>',
 '<dl><dt>Term</dt><dd>Definition</dd></dl><details><summary>More</summary>Body text</details>',
]) {
  const x = await extract('<html><body><article>'+h+'<p>This is a paragraph of article text with several words to keep it going long enough.</p></article></body></html>', { decode: 'unary' });
  console.log(JSON.stringify(x.text), x.blocks.map(b=>[b.text,b.blockBreakAfter, b.label]));
}
