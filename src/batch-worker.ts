// A `pith batch --jobs N` worker thread: loads the model once, then extracts the pages the main thread sends, one at
// a time, and answers each with its line (src/batch.ts).

import { parentPort, workerData } from 'node:worker_threads';
import { extractItem, type BatchFormat, type BatchItem } from './batch.js';
import type { FeatureSetName } from './types.js';

const { featureSet, format } = workerData as { featureSet?: FeatureSetName; format?: BatchFormat };
let queue = Promise.resolve();

parentPort!.on('message', (message: { index: number; item: BatchItem }) => {
  queue = queue.then(async () => {
    parentPort!.postMessage({ index: message.index, line: await extractItem(message.item, featureSet, format) });
  });
});
