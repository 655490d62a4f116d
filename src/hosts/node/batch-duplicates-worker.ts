// A `pith duplicates --jobs N` worker thread: MinHash signatures of the texts the main thread sends, in batches
// (src/hosts/node/batch-duplicates.ts). Null for a text too short to compare.

import { parentPort } from 'node:worker_threads';
import { signatureOf } from '../../core/fingerprint/near-duplicates.js';

parentPort!.on('message', (texts: string[]) => {
  const sigs = texts.map(signatureOf);
  parentPort!.postMessage(sigs, sigs.filter((s) => s !== null).map((s) => s!.buffer as ArrayBuffer));
});
