// A `pith batch --jobs N` worker process: loads the model once, then extracts the pages the parent sends, one at a
// time, and answers each with its line (src/batch.ts). It ends when the parent closes the channel.

import type { BatchFormat, BatchItem } from './batch.js';
import { extractItem } from './batch-extract.js';
import type { FeatureSetName } from './types.js';

const { featureSet, format } = JSON.parse(process.argv[2] ?? '{}') as { featureSet?: FeatureSetName; format?: BatchFormat };
let queue = Promise.resolve();

process.on('message', (message: { index: number; item: BatchItem }) => {
  queue = queue.then(async () => {
    const line = await extractItem(message.item, featureSet, format);
    process.send!({ index: message.index, line });
  });
});
process.on('disconnect', () => {
  void queue.then(() => process.exit(0));
});
