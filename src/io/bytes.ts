// Byte buffers: one concatenation for the places that collect chunks (guarded reads, WARC and gzip parsing).

/** The parts joined into one buffer (the part itself when there is only one: no copy). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  let total = 0;
  for (const p of parts) total += p.byteLength;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.byteLength;
  }
  return out;
}
