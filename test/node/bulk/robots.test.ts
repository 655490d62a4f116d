import { describe, expect, it } from 'vitest';
import { isAllowed, parseRobots, robotsFromStatus } from '../../../src/io/robots.js';

describe('robots.txt (RFC 9309)', () => {
  const text = [
    'User-agent: googlebot',
    'Disallow: /',
    '',
    'User-agent: *',
    'Disallow: /private/',
    'Allow: /private/open$',
    'Crawl-delay: 2',
    '',
    '# pith gets its own group',
    'User-agent: Pith',
    'User-agent: otherbot',
    'Disallow: /drafts/',
    'Disallow: /*.pdf$',
    'Allow: /drafts/public',
    'Crawl-delay: 5',
  ].join('\n');

  it('takes the group that names pith over *, matching the token case-insensitively', () => {
    const policy = parseRobots(text, 'pith');
    expect(policy.crawlDelayS).toBe(5);
    expect(isAllowed(policy, '/private/x')).toBe(true); // * rules do not apply to pith
    expect(isAllowed(policy, '/drafts/x')).toBe(false);
    expect(isAllowed(policy, '/drafts/public/1')).toBe(true); // longer Allow wins
    expect(isAllowed(policy, '/files/a.pdf')).toBe(false);
    expect(isAllowed(policy, '/files/a.pdf?x=1')).toBe(true); // $ anchors the end
    expect(isAllowed(policy, '/robots.txt')).toBe(true);
  });

  it('falls back to the * group, and allows everything without one', () => {
    const star = parseRobots(text, 'somebot');
    expect(isAllowed(star, '/private/secret')).toBe(false);
    expect(isAllowed(star, '/private/open')).toBe(true);
    expect(isAllowed(star, '/private/openx')).toBe(false);
    expect(star.crawlDelayS).toBe(2);
    expect(isAllowed(parseRobots('User-agent: googlebot\nDisallow: /\n', 'pith'), '/a')).toBe(true);
    expect(isAllowed(parseRobots('', 'pith'), '/a')).toBe(true);
    expect(isAllowed(parseRobots('User-agent: *\nDisallow:\n', 'pith'), '/a')).toBe(true);
  });

  it('on a tie between Allow and Disallow, Allow wins', () => {
    expect(isAllowed(parseRobots('User-agent: *\nDisallow: /a\nAllow: /a\n', 'pith'), '/a/b')).toBe(true);
  });

  it('4xx means no rules, 5xx means disallow everything', () => {
    expect(isAllowed(robotsFromStatus(404), '/x')).toBe(true);
    expect(isAllowed(robotsFromStatus(503), '/x')).toBe(false);
  });
});
