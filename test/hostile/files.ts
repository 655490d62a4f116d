// The hostile corpus of the command line's file inputs: files handed to `pith duplicates`, and output files that
// `pith batch --resume` is asked to continue. Each case has the exit code and message pith must give, and a time
// budget; pith must never crash with a stack trace, hang, or allocate what a header merely claims. Every file is
// generated (sparse or repetitive where it is large). Node only; run by test/node/hostile-files.test.ts.
//
// Fields: name (kebab-case), about (one line, for docs/hostile-input.md), command ('duplicates': `pith duplicates <file>`;
// 'resume': `pith batch <three pages> --out <file> --resume`), file (its name: .gz or not), write (makes the file at
// the path given), exit (the exit code), stderr (what the message must say), budgetMs (a guard against hangs).

import { closeSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { mulberry32 } from '../../dev/rng.js';
import { memberHeader } from '../../src/hosts/node/batch-gzip.js';

export interface FileCase {
  name: string;
  about: string;
  command: 'duplicates' | 'resume';
  file: string;
  write: (path: string) => void;
  exit: number;
  stderr: RegExp;
  budgetMs: number;
}

const MAX_LINE = /longer than 268435456 bytes, more than pith batch writes for a page/;

export const FILE_CASES: FileCase[] = [
  {
    name: 'gzip-bomb-one-line',
    about: '300 gzip members of 1 MB of zeros each (300 KB on disk): one line of 300 MB once inflated',
    command: 'duplicates',
    file: 'bomb.jsonl.gz',
    write: (path) => {
      const member = gzipSync(Buffer.alloc(1024 * 1024));
      writeFileSync(path, Buffer.concat(Array.from({ length: 300 }, () => member)));
    },
    exit: 1,
    stderr: MAX_LINE,
    budgetMs: 60_000,
  },
  {
    name: 'sparse-300mb-no-newline',
    about: 'a sparse file of 300 MB of zeros without a newline, to continue',
    command: 'resume',
    file: 'sparse.jsonl',
    write: (path) => {
      const fd = openSync(path, 'w');
      ftruncateSync(fd, 300 * 1024 * 1024);
      closeSync(fd);
    },
    exit: 1,
    stderr: MAX_LINE,
    budgetMs: 60_000,
  },
  {
    name: 'member-claims-a-gigabyte',
    about: "a pith gzip member header claiming 1 GB in a 40-byte file: a killed run's half member, cut without allocating it",
    command: 'resume',
    file: 'claims.jsonl.gz',
    write: (path) => writeFileSync(path, Buffer.concat([memberHeader(1_000_000_000), Buffer.alloc(20)])),
    exit: 0,
    stderr: /3 of 3 pages/,
    budgetMs: 60_000,
  },
  {
    name: 'member-claims-4-gb',
    about: 'a pith gzip member header claiming 4 GB, more than pith batch ever writes',
    command: 'resume',
    file: 'huge.jsonl.gz',
    write: (path) => writeFileSync(path, Buffer.concat([memberHeader(0xffffffff), Buffer.alloc(100)])),
    exit: 1,
    stderr: /was not written by pith batch \(the gzip member at byte 0 gives a size of 4294967295 bytes\)/,
    budgetMs: 60_000,
  },
  {
    name: 'deep-nesting-line',
    about: 'a line with an id and a text nested 100,000 arrays deep',
    command: 'duplicates',
    file: 'deep.jsonl',
    write: (path) => writeFileSync(path, `{"id":"x","text":${'['.repeat(100_000)}${']'.repeat(100_000)}}\n`),
    exit: 1,
    stderr: /line 1 of .* (has no text and no error: )?not a line of pith batch/,
    budgetMs: 60_000,
  },
  {
    name: 'binary-with-newlines',
    about: '64 KB of random bytes, newlines among them',
    command: 'duplicates',
    file: 'random.jsonl',
    write: (path) => {
      const next = mulberry32(11);
      writeFileSync(path, Uint8Array.from({ length: 65_536 }, () => Math.floor(next() * 256)));
    },
    exit: 1,
    stderr: /line 1 of .* is not a line of pith batch/,
    budgetMs: 60_000,
  },
  {
    name: 'gzip-trailing-garbage',
    about: "pith's lines gzip-compressed, then bytes that are not gzip",
    command: 'duplicates',
    file: 'trailing.jsonl.gz',
    write: (path) => writeFileSync(path, Buffer.concat([gzipSync('{"id":"a","text":"hello"}\n'), Buffer.from('not gzip at all')])),
    exit: 1,
    stderr: /is cut short or damaged/,
    budgetMs: 60_000,
  },
  {
    name: 'million-short-lines',
    about: '1,000,000 lines of pages too short to compare (27 MB)',
    command: 'duplicates',
    file: 'many.jsonl',
    write: (path) => writeFileSync(path, '{"id":"p","text":"short text"}\n'.repeat(1_000_000)),
    exit: 0,
    stderr: /among 0 pages compared of 1000000 lines \(1000000 too short to compare, 0 failed\)/,
    budgetMs: 120_000,
  },
];
