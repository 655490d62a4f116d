// A local server of generated article pages for trying bulk jobs (docs/bulk.md, A local job): 127.0.0.1
// only, /a/0 ... /a/<n> are distinct articles, /dup/<g>/<k> near-duplicates, /robots.txt allows pith except /private/
// (all routes: dev/bulk-pages.ts). Stops on Ctrl-C.
//
//   npx tsx eval/bulk-pages.ts [--port 8801]

import { parseArgs } from 'node:util';
import { startBulkPageServer } from '../dev/bulk-pages.js';

const { values } = parseArgs({ options: { port: { type: 'string' } } });
const server = await startBulkPageServer({ port: Number(values.port ?? 8801) });
process.stderr.write(`generated pages on ${server.base} (e.g. ${server.base}/a/0); Ctrl-C stops\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
