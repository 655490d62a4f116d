// A bounded memo keyed by strings cut from a page (class, id and style attributes), for the per-attribute work that
// pages repeat thousands of times.
//
// Why the keys are copied: V8 keeps a substring of 13 or more characters as a slice of the string it was cut from,
// and the tokenizer cuts attribute values out of the page. A memo that stored such a key as it is would keep that
// page's whole HTML alive for as long as the entry lives. Across a long-running process (the eval, `pith batch`, a
// Worker isolate) that held up to 20,000 pages: the eval's heap reached 1.8 GB, and allocation-heavy pages then ran
// 100x slower in back-to-back garbage collections (test/node/parse/string-memo.test.ts measures the retention).

/** A copy of `s` that does not share memory with the string it was cut from. */
export function ownString(s: string): string {
  // ' ' + s is a two-part string; slicing it makes V8 flatten it into a new buffer of s.length + 1 characters first.
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** Every memo made by stringMemo, for settleMemos(). */
const memos: Array<{ entries: Map<string, unknown>; limit: number }> = [];

/**
 * `compute(key)`, remembered. A memo forgets all at once, and only when settleMemos(), called before each page,
 * finds it holding `limit` keys or more (a page's working set is far smaller; one page alone can pass the limit only
 * as far as the parse limits let it): within a page, a key always gives the same value, the same object when it is
 * one. A page's features compare the class lists of its elements by identity (src/core/features/page-context.ts); a memo
 * that was cleared halfway through a page gave one class attribute two lists, and that page's result then depended
 * on how many pages the process had seen before it.
 * `compute` is given the memo's own copy of the key, so that what it returns (substrings of the key, say) does not
 * hold on to the page either.
 */
export function stringMemo<V>(compute: (key: string) => V, limit = 20_000): (key: string) => V {
  const memo = new Map<string, V>();
  memos.push({ entries: memo, limit });
  return (key: string): V => {
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const own = ownString(key);
    const value = compute(own);
    memo.set(own, value);
    return value;
  };
}

/**
 * stringMemo for keys that share no memory with a page already: the class attributes of the DOM, which the tree
 * builder has replaced by its normaliseClass memo's own strings (src/core/parse/tree-builder.ts). The key is kept
 * as it is, not copied, so that the same attribute string met again is found by identity: a Map finds an equal
 * string of another object only by comparing its characters, about 7x slower, and pages repeat their class
 * attributes on thousands of elements. A key cut from a page would keep that page alive: never pass one.
 */
export function ownedKeyMemo<V>(compute: (key: string) => V, limit = 20_000): (key: string) => V {
  const memo = new Map<string, V>();
  memos.push({ entries: memo, limit });
  return (key: string): V => {
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const value = compute(key);
    memo.set(key, value);
    return value;
  };
}

/** Forgets every memo that has reached its limit. Called before each page is parsed (src/core/blocks/page.ts). */
export function settleMemos(): void {
  for (const { entries, limit } of memos) if (entries.size >= limit) entries.clear();
}
