// The Worker entry.
import { createApp } from './server/app.js';
import { interimExtractor } from './server/interim-extractor.js';

export default createApp(interimExtractor);
