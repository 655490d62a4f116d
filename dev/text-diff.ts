// A readable difference of two texts for test failures (the golden outputs of the fixture pages). Pure: runs in
// Node and in workerd.

/**
 * A readable difference of two texts: the first differing line, and the differing middle part (common lines at
 * the start and the end left out) with a few lines of context, each side at most `maxLines` lines.
 */
export function describeDifference(expected: string, actual: string, maxLines = 30): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const context = 3;
  const from = Math.max(0, start - context);
  const out: string[] = [`first difference at line ${start + 1} (expected ${a.length} lines, got ${b.length})`];
  const show = (prefix: string, lines: string[], first: number, last: number): void => {
    const shown = lines.slice(first, Math.min(last, first + maxLines));
    shown.forEach((line, i) => out.push(`${prefix}${String(first + i + 1).padStart(6)} | ${line.length > 200 ? line.slice(0, 200) + '...' : line}`));
    if (last - first > maxLines) out.push(`${prefix}       | ... ${last - first - maxLines} more lines`);
  };
  show('  ', a, from, start);
  show('- ', a, start, endA);
  show('+ ', b, start, endB);
  show('  ', a, endA, Math.min(a.length, endA + context));
  return out.join('\n');
}
