// The Worker entry: the hono app around the Web2Text extractor of this isolate.
import { createApp } from './server/app.js';
import { workerExtractor } from './server/worker-extractor.js';

export default createApp(workerExtractor);
