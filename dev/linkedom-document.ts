// linkedom's document for an HTML string, for tests that need a full DOM implementation (pith's own DOM reads less).
import { DOMParser } from 'linkedom';
import type { DomDocument } from '../src/core/parse/dom.js';

const linkedomParser = new DOMParser();

export function linkedomDocument(html: string): DomDocument {
  return linkedomParser.parseFromString(html, 'text/html') as unknown as DomDocument;
}
