// Media types: the one place that reads a Content-Type's type/subtype and knows which ones are HTML.

/** The media type of a Content-Type value, lower-cased, without parameters ('' for an empty value). */
export function mediaTypeOf(contentType: string): string {
  return contentType.split(';', 1)[0].trim().toLowerCase();
}

const HTML_MEDIA_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

/** Whether a media type (as `mediaTypeOf` gives it) is one pith extracts: HTML or XHTML. */
export function isHtmlMediaType(mediaType: string): boolean {
  return HTML_MEDIA_TYPES.has(mediaType);
}
