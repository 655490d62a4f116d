// Node decodes br with zlib; the one content decoder (io/content-decoder.ts) takes it from here. Imported for its
// effect by every Node entry (lib.ts, cli.ts, the batch workers).

import { Duplex } from 'node:stream';
import { createBrotliDecompress } from 'node:zlib';
import { registerBrotliDecoder } from '../../io/content-decoder.js';

registerBrotliDecoder(() => Duplex.toWeb(createBrotliDecompress()) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
