// End-to-end fixture pages (test/fixtures/pages/<site>-<slug>/): where they live, what expected.json holds,
// how a fixture folder is named. The pages are made by eval/new-fixture.ts; what a page must satisfy is
// ./fixture-check.ts.

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES_DIR = join(REPO_ROOT, 'test', 'fixtures', 'pages');

/** Folder name: the site's main label plus a slug of the URL path, kebab-case. */
export function fixtureName(url: string, id: string, slug?: string): string {
  let host = '';
  let path = '';
  try {
    const u = new URL(url);
    host = u.hostname.toLowerCase().replace(/^www\./, '');
    path = u.pathname;
  } catch {
    // no URL: fall back to the corpus id
  }
  const labels = host.split('.').filter(Boolean);
  // main label: drop the public suffix roughly (last label, and a second-level "co"/"com"/"org" etc.)
  let site = labels.length >= 2 ? labels[labels.length - 2] : (labels[0] ?? 'wcxb');
  if (labels.length >= 3 && /^(co|com|org|net|gov|ac|edu)$/.test(site)) site = labels[labels.length - 3];
  const kebab = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
  const fromPath = kebab(path.replace(/\.(html?|php|aspx?)$/i, '').split('/').filter(Boolean).pop() ?? '');
  const tail = kebab(slug ?? '') || fromPath.slice(0, 40).replace(/-+$/, '') || id;
  return `${kebab(site) || 'wcxb'}-${tail}`;
}
