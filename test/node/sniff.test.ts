// src/io/sniff.ts: what is binary and what is text, on bytes built here.

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SNIFF_BYTES, sniffBinary } from '../../src/io/sniff.js';

const enc = new TextEncoder();

describe('sniffBinary', () => {
  it('names well-known binary formats by their signature', () => {
    expect(sniffBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toBe('a PNG image');
    expect(sniffBinary(enc.encode('%PDF-1.7\n'))).toBe('a PDF document');
    expect(sniffBinary(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('a JPEG image');
    expect(sniffBinary(gzipSync('<p>hello</p>'))).toBe('gzip-compressed data');
    expect(sniffBinary(enc.encode('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe('a WebP image');
  });

  it('calls random bytes binary data, whatever their first bytes', () => {
    let x = 12345;
    for (let trial = 0; trial < 20; trial++) {
      const bytes = new Uint8Array(4096).map(() => {
        x = (x * 1103515245 + 12345) >>> 0;
        return x >>> 24;
      });
      bytes[0] = 0x3c; // '<': looks like markup at first glance
      expect(sniffBinary(bytes)).toBe('binary data');
    }
  });

  it('keeps HTML, UTF-16 with a byte-order mark and a page with a few stray control bytes as text', () => {
    expect(sniffBinary(enc.encode('<!doctype html><p>Grüße, 東京</p>'))).toBeNull();
    expect(sniffBinary(new Uint8Array([0xff, 0xfe, 0x3c, 0x00, 0x70, 0x00, 0x3e, 0x00]))).toBeNull();
    expect(sniffBinary(new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('<p>x</p>')]))).toBeNull();
    const page = enc.encode(`<p>${'text '.repeat(400)}</p>`);
    page[100] = 0x00;
    page[200] = 0x1b;
    expect(sniffBinary(page)).toBeNull();
    expect(sniffBinary(new Uint8Array(0))).toBeNull();
  });

  it('looks at the first SNIFF_BYTES bytes only', () => {
    const bytes = new Uint8Array(SNIFF_BYTES + 1000).fill(0x61);
    bytes.fill(0x00, SNIFF_BYTES); // binary after the window
    expect(sniffBinary(bytes)).toBeNull();
  });
});
