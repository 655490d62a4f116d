// The one thing the routes need of the core, as an interface: the Worker implements it over the bundled model
// (worker-extractor.ts), tests may pass another. Its own module so that app.ts and feed/ depend on it, not on
// each other.

import type { ExtractOptions } from '../../core/extract.js';
import type { Extraction } from '../../types.js';

/** What the routes need of the core: the model version (for cache keys), a readiness check and extraction. */
export interface Extractor {
  /** Version of the model, known without starting it. */
  readonly modelVersion: string;
  /** Starts the model if it is not running yet; throws when it cannot. */
  ready(): Promise<void>;
  /** The core's extraction (its `format` says what to render besides text; see renderOptionsFor in present.ts). */
  extract(html: string, options: ExtractOptions): Promise<Extraction>;
}
