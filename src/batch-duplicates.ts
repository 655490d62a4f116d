// `pith duplicates`: near-duplicate clusters over what `pith batch` wrote, by the method and parameters of the bulk
// jobs' /duplicates (src/bulk/near-duplicates.ts): a corpus built from WARC files or folders is grouped the same way
// a job's pages are. Node only (it reads files).
//
// Memory: a page's MinHash signature (512 bytes), its id and where its line is; the texts are read one line at a
// time and dropped.

import { batchLines } from './batch.js';
import { clusterSignatures, signatureOf } from './bulk/near-duplicates.js';
import { PithError } from './errors.js';

/** A cluster of near-duplicate pages, members in input order (the first is the one to keep when de-duplicating). */
export interface DuplicateCluster {
  /** The pages' ids, as `pith batch` wrote them. */
  ids: string[];
  /** Where each page's line is: `<file>:<line number>`. */
  at: string[];
  /** Smallest estimated Jaccard similarity among the pairs that joined the cluster (see clusterSignatures). */
  minJaccard: number;
}

export interface DuplicatesReport {
  clusters: DuplicateCluster[];
  /** Lines read, over all files. */
  lines: number;
  /** Pages with enough text to compare (at least NEAR_DUPLICATE_PARAMS.minShingles shingles). */
  compared: number;
  /** Pages whose text is too short to compare. */
  short: number;
  /** Lines of pages that failed (an `error`, no text). */
  failed: number;
}

/**
 * Near-duplicate clusters over the lines of `pith batch` output files, in the order given. A line that is not one of
 * pith batch, or a file that ends in half a line (a run that was killed: finish it with --resume first), is an
 * error; nothing is guessed.
 */
export async function duplicatesOfBatchOutput(paths: readonly string[]): Promise<DuplicatesReport> {
  const refusal = 'not a pith batch output to look for duplicates in';
  const report: DuplicatesReport = { clusters: [], lines: 0, compared: 0, short: 0, failed: 0 };
  const ids: string[] = [];
  const fileOf: number[] = [];
  const lineOf: number[] = [];
  const sigs: Uint32Array[] = [];
  for (let f = 0; f < paths.length; f++) {
    let n = 0;
    for await (const { line, complete } of batchLines(paths[f], refusal)) {
      n++;
      if (!complete && line === null) {
        throw new PithError('invalid_input', `${paths[f]} ends in half a line (line ${n}), as a run of pith batch that was interrupted leaves: finish it with pith batch --resume first`);
      }
      report.lines++;
      if (line!.error !== undefined || typeof line!.text !== 'string') {
        report.failed++;
        continue;
      }
      const sig = signatureOf(line!.text);
      if (sig === null) {
        report.short++;
        continue;
      }
      report.compared++;
      ids.push(line!.id!);
      fileOf.push(f);
      lineOf.push(n);
      sigs.push(sig);
    }
  }
  report.clusters = clusterSignatures(sigs.map((sig, id) => ({ id, sig }))).map((c) => ({
    ids: c.ids.map((k) => ids[k]),
    at: c.ids.map((k) => `${paths[fileOf[k]]}:${lineOf[k]}`),
    minJaccard: c.minJaccard,
  }));
  return report;
}
