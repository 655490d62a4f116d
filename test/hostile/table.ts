// Prints a table of the hostile corpus with each case's time from the JSON reports of its two runners:
//
//   npx vitest run --project node test/node/hostile.test.ts --reporter=json --outputFile=/tmp/hostile-node.json
//   npx vitest run --project workers test/workers/hostile.test.ts --reporter=json --outputFile=/tmp/hostile-workers.json
//   npx tsx test/hostile/table.ts /tmp/hostile-node.json /tmp/hostile-workers.json
//
// A time is the whole test of the case: the hostile request, then the check that an ordinary page extracts
// (Node) or that /health answers (workerd). "-" when the runner does not take that kind of input.

import { readFileSync } from 'node:fs';
import { CASES, expectedOutcomes } from './cases.js';

interface Report {
  testResults: Array<{ assertionResults: Array<{ title: string; status: string; duration?: number }> }>;
}

function timesOf(path: string): Map<string, { ms: number; passed: boolean }> {
  const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
  const out = new Map<string, { ms: number; passed: boolean }>();
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      const name = test.title.split(':', 1)[0];
      out.set(name, { ms: test.duration ?? 0, passed: test.status === 'passed' });
    }
  }
  return out;
}

const [nodePath, workersPath] = process.argv.slice(2);
if (nodePath === undefined || workersPath === undefined) {
  console.error('usage: npx tsx test/hostile/table.ts <node report.json> <workers report.json> (see the top of this file)');
  process.exit(2);
}
const node = timesOf(nodePath);
const workers = timesOf(workersPath);
const cell = (t: { ms: number; passed: boolean } | undefined): string => (t === undefined ? '-' : `${Math.round(t.ms).toLocaleString('en')} ms${t.passed ? '' : ' FAILED'}`);

console.log('| case | defect | input | expected (library / Worker) | budget | library (Node) | Worker (workerd) |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const c of CASES) {
  const lib = c.input.kind === 'html' ? expectedOutcomes(c, 'library').join(' or ') : '-';
  const wrk = expectedOutcomes(c, 'worker').join(' or ');
  console.log(`| ${c.name} | ${c.defect ?? ''} | ${c.about.replaceAll('|', '\\|')} | ${lib} / ${wrk} | ${c.budgetMs / 1000} s | ${cell(node.get(c.name))} | ${cell(workers.get(c.name))} |`);
}
const all = [...node.values(), ...workers.values()];
console.log(`\n${all.filter((t) => t.passed).length} of ${all.length} runs passed.`);
