// What fresh memory costs on this machine: the price of a page-sized string, the first thing each extraction makes
// (its HTML, decoded from bytes). V8 puts a string of more than 128 KB in its large-object space, each in memory of
// its own that it maps when the string is made and unmaps when it dies, so every page's HTML arrives in memory the
// process has not touched before. Strings under that size come from the young generation, which V8 reuses.
//
//   npm run bench:fresh-memory
//
// Decodes the same 220,000 UTF-8 bytes (mostly ASCII, with a few curly quotes, as a typical page: one character above
// U+00FF makes the whole string two bytes a character) in one piece and in 40 KB pieces, many times over, and prints
// milliseconds and minor page faults (first touches of a 4 KB memory page, process.resourceUsage()) per decode.

const BYTES = 220_000;
const PIECE = 40_000;
const ROUNDS = 400;

function pageBytes(): Uint8Array {
  const sentence = 'The council met on Tuesday to discuss the plan, and the mayor said it was \u2019not finished\u2019. ';
  return new TextEncoder().encode(sentence.repeat(Math.ceil(BYTES / sentence.length))).subarray(0, BYTES);
}

function measure(label: string, decodeOnce: () => number): { label: string; ms: number; faults: number } {
  for (let i = 0; i < 20; i++) decodeOnce(); // warm up
  const f0 = process.resourceUsage().minorPageFault;
  const t0 = performance.now();
  let sink = 0;
  for (let i = 0; i < ROUNDS; i++) sink += decodeOnce();
  const ms = (performance.now() - t0) / ROUNDS;
  const faults = (process.resourceUsage().minorPageFault - f0) / ROUNDS;
  if (sink === 0) throw new Error('nothing decoded');
  return { label, ms, faults };
}

function main(): void {
  const bytes = pageBytes();
  const decoder = new TextDecoder();
  const pieces: Uint8Array[] = [];
  // cut at character boundaries (never inside a UTF-8 sequence), so each piece decodes on its own
  for (let start = 0; start < bytes.length; ) {
    let end = Math.min(start + PIECE, bytes.length);
    while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) end++;
    pieces.push(bytes.subarray(start, end));
    start = end;
  }
  const whole = decoder.decode(bytes);
  if (pieces.map((p) => decoder.decode(p)).join('') !== whole) throw new Error('the pieces do not decode to the whole');
  const rows = [
    measure(`one string of ${whole.length} characters`, () => decoder.decode(bytes).charCodeAt(1000)),
    measure(`${pieces.length} strings of at most ${PIECE} bytes`, () => {
      let n = 0;
      for (const p of pieces) n += decoder.decode(p).charCodeAt(100);
      return n;
    }),
  ];
  process.stdout.write(`decoding ${BYTES} bytes of UTF-8, ${ROUNDS} times, node ${process.version}\n`);
  for (const r of rows) {
    process.stdout.write(`  ${r.label}: ${r.ms.toFixed(3)} ms and ${r.faults.toFixed(1)} minor page faults per decode (${(BYTES / r.ms / 1000).toFixed(0)} MB/s)\n`);
  }
  const [big, small] = rows;
  if (big.faults > small.faults) {
    process.stdout.write(`  the difference per page fault: ${(((big.ms - small.ms) * 1000) / (big.faults - small.faults)).toFixed(1)} us\n`);
  }
}

main();
