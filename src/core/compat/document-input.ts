// What the drop-in entry points accept as a page: an HTML string, or a DOM Document from linkedom, jsdom or a
// browser (serialised through documentElement.outerHTML, which all three have). Pure: reads only those fields.

import { PithError } from '../../errors.js';

/** The part of a DOM Document this reads. */
export interface DocumentLike {
  documentElement: { outerHTML: string } | null;
  doctype?: { name?: string } | null;
  /** The document's URL (a browser's or jsdom's); used when no url option is given. */
  URL?: string;
  baseURI?: string;
}

/** The page's HTML and, when the document knows it, its http(s) URL. */
export function htmlOfInput(input: string | DocumentLike): { html: string; url?: string } {
  if (typeof input === 'string') return { html: input };
  if (input === null || typeof input !== 'object' || input.documentElement === undefined) {
    throw new PithError('invalid_input', 'pass an HTML string or a DOM Document (linkedom, jsdom or a browser document)');
  }
  const outer = input.documentElement?.outerHTML;
  if (typeof outer !== 'string') throw new PithError('invalid_input', 'the document has no documentElement.outerHTML to read the page from');
  const doctype = input.doctype?.name ? `<!DOCTYPE ${input.doctype.name}>` : '';
  const known = [input.baseURI, input.URL].find((u) => typeof u === 'string' && /^https?:\/\//i.test(u));
  return known === undefined ? { html: doctype + outer } : { html: doctype + outer, url: known };
}
