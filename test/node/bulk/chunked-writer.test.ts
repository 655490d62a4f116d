// `pith batch` writes its lines and its progress in chunks (ChunkedWriter in src/hosts/node/cli.ts): everything arrives, in
// order, in far fewer writes than lines, and no later than the delay after it was written.

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ChunkedWriter } from '../../../src/hosts/node/cli.js';

/** A real stream that keeps what each write handed it (and can be made to fail). */
function sink(fail = false): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      done(fail ? new Error('disk full') : null);
    },
  });
  stream.on('error', () => undefined);
  return { stream, writes };
}

describe('ChunkedWriter', () => {
  it('writes every line, in order, a chunk at a time', async () => {
    const { stream, writes } = sink();
    const writer = new ChunkedWriter(stream);
    const lines = Array.from({ length: 5_000 }, (_, i) => `{"id":"page-${i}","text":"${'x'.repeat(i % 97)}"}\n`);
    for (const line of lines) await writer.write(line);
    await writer.flush();
    expect(writes.join('')).toBe(lines.join(''));
    const total = lines.join('').length;
    expect(writes.length).toBeLessThanOrEqual(Math.ceil(total / ChunkedWriter.MAX_CHARS) + 1);
    expect(writes.length).toBeGreaterThan(1);
    for (const chunk of writes.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(ChunkedWriter.MAX_CHARS);
  });

  it('writes a line that fills no chunk after the delay, without a flush', async () => {
    const { stream, writes } = sink();
    const writer = new ChunkedWriter(stream);
    await writer.write('one\n');
    await writer.write('two\n');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, ChunkedWriter.MAX_DELAY_MS * 3));
    expect(writes).toEqual(['one\ntwo\n']);
    await writer.flush(); // nothing left: no empty write
    expect(writes).toEqual(['one\ntwo\n']);
  });

  it('a failed write rejects the write that filled the chunk', async () => {
    const { stream } = sink(true);
    const writer = new ChunkedWriter(stream);
    await expect(writer.write('y'.repeat(ChunkedWriter.MAX_CHARS))).rejects.toThrow('disk full');
  });
});
