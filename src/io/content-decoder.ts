// The one content decoder of pith: gzip, deflate (zlib or raw) and br, for HTTP bodies both ways, fetched replies,
// WARC files and their records, and files, in Node and workerd alike. Every decode streams its input through
// DecompressionStream in small slices and stops at the byte cap and the deadline (docs/hostile-input.md):
// - A slice is at most (bytes still allowed) / 1032 (deflate's largest expansion) and at most 64 KiB, so the output
//   of one slice, which the runtime produces all at once, never takes the total past twice the cap.
// - Multi-member gzip (a WARC file, one member per record): Node's DecompressionStream reads every member; workerd's
//   stops at the end of the first ("Trailing bytes after end of compressed data") and drops what it had not handed
//   out yet, so there each member is found (decodeMembers) in time linear in the input.
// - br: workerd has no DecompressionStream for it (the runtime decodes br replies itself); a host that can decode
//   it registers a decoder (hosts/node does, with zlib), elsewhere br is refused with a clear error.

import { PithError, type PithErrorCode } from '../errors.js';
import { concatBytes } from './bytes.js';

export type ContentCoding = 'identity' | 'gzip' | 'deflate' | 'br';

/** Codings an Accept-Encoding may offer: those this runtime decodes in every path. */
export const DECODABLE_CODINGS = 'gzip, deflate, br';

export interface DecodeOptions {
  /** Most decoded bytes; past it the decode stops with `codes.tooLarge`. */
  maxBytes: number;
  /** Most input bytes read (default: maxBytes); past it, `codes.tooLarge` too. */
  maxInputBytes?: number;
  /** Date.now() after which the decode stops with `codes.timeout`. */
  deadlineMs?: number;
  /** Stops the decode with `codes.timeout` when aborted. */
  signal?: AbortSignal;
  /** What is being decoded, for messages: "the posted body", "the body from example.com". */
  what: string;
  codes: DecodeCodes;
}

export interface DecodeCodes {
  tooLarge: PithErrorCode;
  corrupt: PithErrorCode;
  timeout: PithErrorCode;
}

/** The codes of a body the client sent (the HTTP routes): 413, 400, 408. */
export const CLIENT_CODES: Readonly<DecodeCodes> = Object.freeze({ tooLarge: 'input_too_large', corrupt: 'invalid_input', timeout: 'request_timeout' });
/** The codes of a body an upstream sent: 413, 502, 504. */
export const UPSTREAM_CODES: Readonly<DecodeCodes> = Object.freeze({ tooLarge: 'upstream_too_large', corrupt: 'upstream_error', timeout: 'upstream_timeout' });

/** A decoder for one coding the runtime lacks (br on Node: zlib's), as a transform of byte chunks. */
export type StreamDecoderFactory = () => ReadableWritablePair<Uint8Array, Uint8Array>;

let brotliFactory: StreamDecoderFactory | null = null;

/** Lets a host decode br (hosts/node registers zlib's brotli decoder when it loads). */
export function registerBrotliDecoder(factory: StreamDecoderFactory): void {
  brotliFactory = factory;
}

const DEFLATE_MAX_RATIO = 1032;
const MIN_SLICE_BYTES = 512;
const MAX_SLICE_BYTES = 64 * 1024;
const GZIP_MIN_MEMBER_BYTES = 18; // 10-byte header, empty deflate block, 8-byte trailer
/** How many places a gzip member may end at are tried before the data counts as corrupt (bounds crafted input). */
const MAX_MEMBER_END_TRIES = 8;

/**
 * The coding named by a Content-Encoding header. x-gzip is gzip; '' and identity are none. Stacked codings
 * ("gzip, br"), zstd and the rest are refused with `code`.
 */
export function parseContentCoding(header: string | null | undefined, code: PithErrorCode, what: string): ContentCoding {
  const value = (header ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity') return 'identity';
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'deflate') return 'deflate';
  if (value === 'br') return 'br';
  throw new PithError(code, `${what} has Content-Encoding "${value.slice(0, 40)}", which pith cannot decode (it takes ${DECODABLE_CODINGS})`, { contentEncoding: value.slice(0, 40) });
}

/** Whether bytes start with gzip's magic (1f 8b). */
export function isGzipBytes(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Whether a deflate body is zlib-wrapped (RFC 1950 CMF/FLG check) rather than raw deflate. */
function isZlib(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && (bytes[0] & 0x0f) === 8 && ((bytes[0] << 8) | bytes[1]) % 31 === 0;
}

/** Whether this is workerd (its fetch and DecompressionStream behave differently from Node's). */
export const IN_WORKERD = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';

/** A byte count for messages: "5 MiB", "512 bytes". */
export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${+(n / (1024 * 1024)).toFixed(2)} MiB` : `${n} bytes`;
}

class Budget {
  produced = 0;
  consumed = 0;
  private readonly maxInput: number;
  constructor(private readonly options: DecodeOptions) {
    this.maxInput = options.maxInputBytes ?? options.maxBytes;
  }
  /** Input bytes the next slice may take. */
  sliceBytes(): number {
    const left = Math.max(0, this.options.maxBytes - this.produced);
    return Math.min(MAX_SLICE_BYTES, Math.max(MIN_SLICE_BYTES, Math.floor(left / DEFLATE_MAX_RATIO)));
  }
  take(n: number): void {
    this.consumed += n;
    if (this.consumed > this.maxInput) throw this.tooLarge('compressed');
  }
  add(n: number): void {
    this.produced += n;
    if (this.produced > this.options.maxBytes) throw this.tooLarge('decoded');
  }
  check(): void {
    const { deadlineMs, signal } = this.options;
    if ((deadlineMs !== undefined && Date.now() > deadlineMs) || signal?.aborted === true) {
      throw new PithError(this.options.codes.timeout, `decoding ${this.options.what} did not finish in time`, { cause: 'timeout' });
    }
  }
  tooLarge(which: 'compressed' | 'decoded'): PithError {
    const max = which === 'compressed' ? this.maxInput : this.options.maxBytes;
    return new PithError(this.options.codes.tooLarge, `${this.options.what} is larger than ${formatBytes(max)} ${which}: pith reads at most ${formatBytes(max)}`, { maxBytes: max });
  }
  corrupt(coding: string, detail: string): PithError {
    return new PithError(this.options.codes.corrupt, `${this.options.what} is labelled ${coding} but does not decode (${detail.slice(0, 200)})`, { contentEncoding: coding });
  }
}

type Format = 'gzip' | 'deflate' | 'deflate-raw' | 'br';

function decoderFor(format: Format, budget: Budget, coding: string): ReadableWritablePair<Uint8Array, Uint8Array> {
  if (format === 'br') {
    if (brotliFactory === null) throw budget.corrupt('br', 'this runtime has no br decoder for it');
    return brotliFactory();
  }
  return new DecompressionStream(format) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
}

/** The input cut into slices sized by the budget. */
async function* slicesOf(input: AsyncIterable<Uint8Array>, budget: Budget): AsyncGenerator<Uint8Array> {
  for await (const chunk of input) {
    for (let at = 0; at < chunk.length; ) {
      const n = Math.min(budget.sliceBytes(), chunk.length - at);
      budget.take(n);
      yield chunk.subarray(at, at + n);
      at += n;
    }
  }
}

/**
 * workerd's DecompressionStream resolves every write once it has decoded the slice, whether or not its output was
 * read (Node's waits for the reader). So in workerd, after each write, the output is read until none is ready for
 * one turn of the event loop: the next slice is written only when the last one's output was counted.
 */
const WRITES_RUN_AHEAD = IN_WORKERD;
const TICK = 'tick' as const;
const WROTE = 'wrote' as const;
const tick = (): Promise<typeof TICK> => new Promise((resolve) => setTimeout(() => resolve(TICK), 0));

/** One decoder, fed slice by slice: push() returns what the slice decoded to (so far), finish() the rest. */
class SliceDecoder {
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private pending: Promise<ReadableStreamReadResult<Uint8Array>>;
  private ended = false;

  constructor(pair: ReadableWritablePair<Uint8Array, Uint8Array>) {
    this.writer = pair.writable.getWriter();
    this.reader = pair.readable.getReader();
    this.pending = this.nextRead();
  }

  private nextRead(): Promise<ReadableStreamReadResult<Uint8Array>> {
    const read = this.reader.read();
    read.catch(() => undefined); // raced below; a rejection is seen there
    return read;
  }

  /** Reads while `step` is pending, then (where writes run ahead) until no output is ready; throws what the decoder throws. */
  private async readAround(step: Promise<void>, out: Uint8Array[], untilEnd: boolean): Promise<void> {
    let stepDone = false;
    let stepError: unknown = null;
    const stepped: Promise<typeof WROTE> = step.then(
      () => WROTE,
      (err: unknown) => {
        stepError = err;
        return WROTE;
      },
    );
    for (;;) {
      if (this.ended) break;
      const other: Promise<ReadableStreamReadResult<Uint8Array> | typeof TICK | typeof WROTE> | typeof TICK = stepDone ? (untilEnd ? this.pending : WRITES_RUN_AHEAD ? tick() : TICK) : stepped;
      const next: ReadableStreamReadResult<Uint8Array> | typeof TICK | typeof WROTE = await Promise.race([this.pending, other]);
      if (next === WROTE) {
        stepDone = true;
        if (stepError !== null) throw stepError;
        if (!WRITES_RUN_AHEAD && !untilEnd) break;
        continue;
      }
      if (next === TICK) break;
      if (next.done) {
        this.ended = true;
        break;
      }
      out.push(next.value);
      this.pending = this.nextRead();
    }
    if (!stepDone) await stepped;
    if (stepError !== null) throw stepError;
  }

  async push(slice: Uint8Array): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    await this.readAround(this.writer.write(slice), out, false);
    return out;
  }

  async finish(): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    await this.readAround(this.writer.close(), out, true);
    return out;
  }

  cancel(): void {
    this.reader.cancel().catch(() => undefined);
    this.writer.abort().catch(() => undefined);
  }
}

/**
 * Streams `input` through one decoder of `format`, yielding the output as it comes, bounded by `budget`.
 * Throws the budget's errors, or `corrupt` when the data does not decode.
 */
async function* decodeOne(input: AsyncIterable<Uint8Array>, format: Format, budget: Budget, coding: string): AsyncGenerator<Uint8Array> {
  const decoder = new SliceDecoder(decoderFor(format, budget, coding));
  const corrupt = (err: unknown): unknown => (err instanceof PithError ? err : budget.corrupt(coding, err instanceof Error ? err.message : String(err)));
  try {
    for await (const slice of slicesOf(input, budget)) {
      budget.check();
      let outs: Uint8Array[];
      try {
        outs = await decoder.push(slice);
      } catch (err) {
        throw corrupt(err);
      }
      for (const out of outs) {
        budget.add(out.byteLength);
        yield out;
      }
    }
    let rest: Uint8Array[];
    try {
      rest = await decoder.finish();
    } catch (err) {
      throw corrupt(err);
    }
    for (const out of rest) {
      budget.add(out.byteLength);
      yield out;
    }
  } finally {
    decoder.cancel();
  }
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** Whether this runtime's gzip DecompressionStream reads past the end of the first member (Node) or not (workerd). */
let readsAllMembers: Promise<boolean> | null = null;
// Two members, "a" and "b" (gzip -n of each, concatenated).
const TWO_MEMBERS = new Uint8Array([
  0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03, 0x4b, 0x04, 0, 0x43, 0xbe, 0xb7, 0xe8, 1, 0, 0, 0,
  0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03, 0x4b, 0x02, 0, 0xf9, 0xef, 0xbe, 0x71, 1, 0, 0, 0,
]);

async function probeAllMembers(): Promise<boolean> {
  try {
    const out = await new Response(new Blob([TWO_MEMBERS]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
    return out === 'ab';
  } catch {
    return false;
  }
}

/** Offsets in [from, to) where a gzip member may start (1f 8b 08). */
function magicOffsets(bytes: Uint8Array, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = Math.max(0, from); i < to && i + 2 < bytes.length; i++) {
    if (bytes[i] === 0x1f && bytes[i + 1] === 0x8b && bytes[i + 2] === 0x08) out.push(i);
  }
  return out;
}

/**
 * Multi-member gzip where the runtime's decoder stops after one member (workerd). For each member: one pass
 * finds the slice in which the decoder met the next member's bytes; then the member is decoded again, cut just
 * before each gzip magic in that slice and the one before it, until one decodes completely. Each member is thus
 * decoded about twice: linear in the input. A member's output is held whole, so each is capped at `maxMemberBytes`.
 */
async function* decodeMembers(input: AsyncIterable<Uint8Array>, budget: Budget, maxMemberBytes: number, options: DecodeOptions): AsyncGenerator<Uint8Array> {
  const iterator = input[Symbol.asyncIterator]();
  let buffer: Uint8Array = new Uint8Array(0);
  let ended = false;
  const readMore = async (): Promise<boolean> => {
    if (ended) return false;
    const next = await iterator.next();
    if (next.done === true) {
      ended = true;
      return false;
    }
    budget.take(next.value.byteLength);
    buffer = buffer.length === 0 ? next.value : concatBytes([buffer, next.value]);
    return true;
  };
  const memberBudget = (): Budget => new Budget({ ...options, maxBytes: maxMemberBytes, maxInputBytes: Number.MAX_SAFE_INTEGER });
  for (;;) {
    while (buffer.length === 0) if (!(await readMore())) return;
    // Pass 1: feed the member in slices; remember where the decoder gave up.
    const first = memberBudget();
    const decoder = new SliceDecoder(new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
    const outputs: Uint8Array[] = [];
    let decodeError: unknown = null;
    // Starts of the last slices written: the decoder fails in the slice where the next member begins, or soon after.
    const starts: number[] = [];
    let at = 0;
    try {
      for (;;) {
        budget.check();
        if (at >= buffer.length && !(await readMore())) break;
        if (buffer.length > maxMemberBytes + MAX_SLICE_BYTES) throw first.tooLarge('compressed');
        const n = Math.min(first.sliceBytes(), buffer.length - at);
        starts.push(at);
        if (starts.length > 3) starts.shift();
        at += n;
        let outs: Uint8Array[];
        try {
          outs = await decoder.push(buffer.slice(at - n, at));
        } catch (err) {
          decodeError = err;
          break;
        }
        for (const out of outs) {
          first.add(out.byteLength);
          outputs.push(out);
        }
      }
      if (decodeError === null) {
        try {
          for (const out of await decoder.finish()) {
            first.add(out.byteLength);
            outputs.push(out);
          }
        } catch (err) {
          decodeError = err;
        }
      }
    } finally {
      decoder.cancel();
    }
    if (decodeError instanceof PithError) throw decodeError;
    if (decodeError === null) {
      // The input ended with this member: it decoded whole.
      for (const out of outputs) {
        budget.add(out.byteLength);
        yield out;
      }
      return;
    }
    const readError = decodeError;
    const failed = { from: starts[0] ?? 0, to: at, message: readError instanceof Error ? readError.message : String(readError) };
    // Pass 2: the member ends just before a gzip magic in the failing slice (or the one before).
    while (buffer.length < failed.to + 3 && (await readMore()));
    const candidates = magicOffsets(buffer, Math.max(GZIP_MIN_MEMBER_BYTES, failed.from), failed.to + 1).slice(0, MAX_MEMBER_END_TRIES);
    let found = -1;
    let member: Uint8Array[] = [];
    for (const end of candidates) {
      const again = memberBudget();
      try {
        member = [];
        for await (const out of decodeOne(once(buffer.subarray(0, end)), 'gzip', again, 'gzip')) member.push(out);
        found = end;
        break;
      } catch (err) {
        if (err instanceof PithError && err.code !== options.codes.corrupt) throw err;
      }
    }
    if (found < 0) throw budget.corrupt('gzip', `no gzip member ends where the decoder stopped, near byte ${budget.consumed}: ${failed.message}`);
    for (const out of member) {
      budget.add(out.byteLength);
      yield out;
    }
    buffer = buffer.slice(found);
  }
}

/**
 * Decodes a stream of `coding`-encoded chunks, yielding decoded chunks as they come. gzip may hold several
 * members (each is decoded in turn). Bounded by `options` in decoded bytes, input bytes and time.
 * `maxMemberBytes`: where members must be split by hand (workerd), the most one member may decode to.
 */
export async function* decodeStream(input: AsyncIterable<Uint8Array>, coding: ContentCoding, options: DecodeOptions, maxMemberBytes = options.maxBytes): AsyncGenerator<Uint8Array> {
  const budget = new Budget(options);
  if (coding === 'identity') {
    for await (const chunk of input) {
      budget.take(chunk.byteLength);
      budget.add(chunk.byteLength);
      budget.check();
      yield chunk;
    }
    return;
  }
  if (coding === 'br') {
    yield* decodeOne(input, 'br', budget, 'br');
    return;
  }
  if (coding === 'deflate') {
    // zlib-wrapped (RFC 9110) or raw deflate, as some servers send: the first two bytes tell.
    const iterator = input[Symbol.asyncIterator]();
    const first = await iterator.next();
    if (first.done === true) return;
    const rest = (async function* () {
      yield first.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) return;
        yield next.value;
      }
    })();
    yield* decodeOne(rest, isZlib(first.value) ? 'deflate' : 'deflate-raw', budget, 'deflate');
    return;
  }
  readsAllMembers ??= probeAllMembers();
  if (await readsAllMembers) yield* decodeOne(input, 'gzip', budget, 'gzip');
  else yield* decodeMembers(input, budget, maxMemberBytes, options);
}

/** Decodes one whole buffer (a body, a file, a WARC record's payload) into one buffer, bounded as decodeStream. */
export async function decodeBytes(bytes: Uint8Array, coding: ContentCoding, options: DecodeOptions): Promise<Uint8Array> {
  if (coding === 'identity') {
    if (bytes.byteLength > options.maxBytes) throw new Budget(options).tooLarge('decoded');
    return bytes;
  }
  const parts: Uint8Array[] = [];
  for await (const part of decodeStream(once(bytes), coding, { ...options, maxInputBytes: options.maxInputBytes ?? Number.MAX_SAFE_INTEGER })) {
    parts.push(part);
  }
  return concatBytes(parts);
}

/** The chunks of a web stream, as an async iterable that releases the stream when the consumer stops early. */
export async function* chunksOf(stream: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (stream === null) return;
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) reader.cancel().catch(() => undefined);
    else reader.releaseLock();
  }
}
