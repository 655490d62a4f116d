/// <reference types="node" />
// vitest globalSetup for the bulk-job tests (runs in Node): two generated-page servers on 127.0.0.1, one whose
// robots.txt allows pith (except /private/) and one whose robots.txt refuses pith everywhere.

import type { TestProject } from 'vitest/node';
import { startBulkPageServer } from '../../../dev/bulk-pages.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pages = await startBulkPageServer();
  const refusing = await startBulkPageServer({ refuseRobots: true });
  project.provide('bulkPagesPort', pages.port);
  project.provide('bulkRefusingPort', refusing.port);
  return async () => {
    await pages.close();
    await refusing.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    bulkPagesPort: number;
    bulkRefusingPort: number;
  }
}
