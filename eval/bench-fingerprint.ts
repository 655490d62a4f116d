// Speed of the fingerprints on a 1,000-word text: SimHash (every JSON answer) beside MinHash (the training split's
// near-duplicate search), median of 200 runs after a warm-up. A benchmark, not a test: timings vary by machine.
//
//   npx tsx eval/bench-fingerprint.ts

import { mulberry32 } from '../dev/rng.js';
import { minhash } from '../src/core/fingerprint/minhash.js';
import { simhash } from '../src/core/fingerprint/simhash.js';

const WORDS = 'river bridge stone arch flood county engineer pier bedrock detour parade mayor mason valley winter spring'.split(' ');
const next = mulberry32(9);
const text = Array.from({ length: 1000 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');

function medianMs(run: () => unknown, n = 200): number {
  for (let i = 0; i < 20; i++) run();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)];
}

const sim = medianMs(() => simhash(text));
const min = medianMs(() => minhash(text));
console.log(`1,000 words: simhash ${sim.toFixed(3)} ms, minhash ${min.toFixed(3)} ms (median of 200; minhash/simhash ${(min / sim).toFixed(1)}x)`);
