// The one error type of pith. The core throws it only for input it cannot take at all;
// "no main content" is a value (empty text), not an exception. hosts/worker/errors.ts maps `code` to an HTTP status in one place.

export type PithErrorCode =
  | 'input_too_large'
  | 'invalid_input'
  | 'model_mismatch'
  | 'model_missing'
  | 'invalid_url'
  | 'blocked_target'
  | 'upstream_error'
  | 'upstream_timeout'
  | 'upstream_too_large'
  | 'not_html'
  | 'not_a_feed'
  | 'invalid_feed'
  | 'no_content'
  | 'unauthorized'
  | 'rate_limited'
  | 'request_timeout'
  | 'not_acceptable'
  | 'not_found'
  | 'extraction_failed'
  | 'internal';

export class PithError extends Error {
  readonly code: PithErrorCode;
  readonly details: Record<string, unknown> | undefined;
  /** `cause`: the error behind it, when it wraps one (an `extraction_failed` wraps what went wrong). */
  constructor(code: PithErrorCode, message: string, details?: Record<string, unknown>, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'PithError';
    this.code = code;
    this.details = details;
  }
}
