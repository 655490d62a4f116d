// Writes test/fixtures/fingerprints.json (see dev/fingerprint-fixture.ts). Run once, commit the file:
//
//   npx tsx eval/make-fingerprint-fixture.ts
//
// Regenerate only when the fingerprint method changes on purpose: every fingerprint users have stored changes
// with it (say so in the commit message).

import { writeFileSync } from 'node:fs';
import { FINGERPRINT_FIXTURE, makeFixture } from '../dev/fingerprint-fixture.js';

const fixture = makeFixture();
// One case per line: readable diffs when a case is added.
const lines = fixture.cases.map((c) => `  ${JSON.stringify(c)}`);
writeFileSync(FINGERPRINT_FIXTURE, `{\n "note": ${JSON.stringify(fixture.note)},\n "cases": [\n${lines.join(',\n')}\n ]\n}\n`);
console.log(`wrote ${fixture.cases.length} cases to ${FINGERPRINT_FIXTURE}`);
