// A `pith batch --jobs N` worker process: loads the model once, warms up on a built-in page (batch-prime.ts), then
// extracts the pages the parent sends, one at a time, and answers each with its line (src/hosts/node/batch.ts). It ends when
// the parent closes the channel.

import type { BatchItem } from './batch.js';
import { extractItem } from './batch-extract.js';
import { primeExtraction } from './batch-prime.js';
import type { FeatureSetName, Format } from '../../types.js';
import { limitsOf, type Limits } from '../../config.js';

const { featureSet, format, limits: overrides } = JSON.parse(process.argv[2] ?? '{}') as { featureSet?: FeatureSetName; format?: Format; limits?: Partial<Limits> };
const limits = limitsOf(overrides);
// A warm-up that fails costs its speed, not the batch: the pages are still extracted (and fail on their own lines if
// the model is what is broken).
let queue = primeExtraction(featureSet, format).catch((err: unknown) => {
  process.stderr.write(`pith batch: the worker's warm-up failed (${err instanceof Error ? err.message : String(err)}); going on without it\n`);
});

process.on('message', (message: { index: number; item: BatchItem }) => {
  queue = queue.then(async () => {
    const line = await extractItem(message.item, featureSet, format, limits);
    // A parent that is gone (killed: SIGKILL, the OOM killer) cannot be answered; end quietly rather than with an
    // unhandled EPIPE on the terminal.
    process.send!({ index: message.index, line }, (err: Error | null) => {
      if (err) process.exit(1);
    });
  });
});
process.on('disconnect', () => {
  void queue.then(() => process.exit(0));
});
