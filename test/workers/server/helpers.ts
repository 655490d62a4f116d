/// <reference types="@cloudflare/vitest-pool-workers/types" />
// Helpers for the server tests: call the real Worker entry inside workerd and address the page server.

import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env as rawEnv } from 'cloudflare:workers';
import { inject } from 'vitest';
import worker from '../../../src/hosts/worker/index';
import type { Env } from '../../../src/hosts/worker/env';

export type TestEnv = Env & { TEST_RATE_LIMITER: RateLimit };
export const baseEnv = rawEnv as unknown as TestEnv;

const port = inject('pageServerPort');

/** URL of a page on the local page server. */
export function page(path: string): string {
  return `http://127.0.0.1:${port}${path}`;
}

/** The page server's port (for building other spellings of its address). */
export const pageServerPort = port;

/**
 * Sends a request to the Worker and waits for everything it put in waitUntil (cache writes), so a following
 * request sees them. `vars` override bindings for this call only.
 */
export async function call(pathOrRequest: string | Request, init?: RequestInit, vars: Partial<TestEnv> = {}): Promise<Response> {
  const request = typeof pathOrRequest === 'string' ? new Request(`https://pith.test${pathOrRequest}`, init) : pathOrRequest;
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...baseEnv, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** The JSON error body of a response. */
export async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return body.error;
}

/** The extract URL for a target. */
export function extractPath(target: string, extra = ''): string {
  return `/v1/extract?url=${encodeURIComponent(target)}${extra}`;
}

/** A fresh id, so tests do not share cache entries or hit counters. */
export function uniqueId(): string {
  return crypto.randomUUID();
}
