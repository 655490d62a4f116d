// Debian's chromium (`apt-get install -y chromium`) driven by playwright-core, launched offline, for the browser
// suites of test/full: one browser per suite file, closed after it.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll } from 'vitest';

const CHROMIUM = process.env.PITH_CHROMIUM ?? '/usr/bin/chromium';
const OFFLINE_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

let browser: Browser | undefined;

/** The browser, launched by the first test that needs it; a missing Chromium fails each test with how to get it. */
export async function launched(): Promise<Browser> {
  if (browser) return browser;
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium) or set PITH_CHROMIUM`);
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: OFFLINE_FLAGS });
  return browser;
}

afterAll(async () => {
  await browser?.close();
  browser = undefined;
});

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
