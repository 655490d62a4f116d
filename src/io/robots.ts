// robots.txt (RFC 9309): parse once per host, then answer "may this agent fetch this path?". Pure.
//
// - Groups start with one or more `User-agent` lines; the group whose product token matches ours (case-insensitive,
//   the token is a prefix of our name) wins, else the `*` group, else everything is allowed.
// - Within the group the longest matching `Allow`/`Disallow` path wins; on a tie Allow wins. `*` matches any run
//   of characters, a final `$` anchors the end. An empty Disallow allows everything.
// - `Crawl-delay` (not in the RFC, widely used) is kept for the group, in seconds.
// - What the caller does when robots.txt cannot be had is the RFC's: 4xx means no rules (allowed), 5xx or
//   unreachable means "disallow everything" (robotsFromStatus).

export interface RobotsRule {
  allow: boolean;
  /** The path pattern as written (percent-encoding normalised to upper-case hex). */
  pattern: string;
  /** Compiled matcher, or null for a pattern without wildcards (plain prefix). */
  regex: RegExp | null;
}

export interface RobotsPolicy {
  rules: readonly RobotsRule[];
  /** Seconds between requests asked for by the group, or null. */
  crawlDelayS: number | null;
  /** True when every path is refused regardless of rules (robots.txt unreachable or 5xx). */
  disallowAll: boolean;
}

/** No rules: everything allowed. */
export const ALLOW_ALL: RobotsPolicy = Object.freeze({ rules: Object.freeze([]), crawlDelayS: null, disallowAll: false });
/** robots.txt could not be had (5xx, unreachable): RFC 9309 says to assume complete disallow. */
export const DISALLOW_ALL: RobotsPolicy = Object.freeze({ rules: Object.freeze([]), crawlDelayS: null, disallowAll: true });

/** Largest robots.txt parsed (RFC 9309: at least 500 KiB must be parsed; the rest may be ignored). */
export const ROBOTS_MAX_CHARS = 512 * 1024;

const REGEX_SPECIAL = /[.+?^${}()|[\]\\]/g;

function normalisePercent(path: string): string {
  return path.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
}

function compileRule(allow: boolean, raw: string): RobotsRule {
  const pattern = normalisePercent(raw);
  if (!pattern.includes('*') && !pattern.endsWith('$')) return { allow, pattern, regex: null };
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body.split('*').map((part) => part.replace(REGEX_SPECIAL, '\\$&')).join('.*');
  return { allow, pattern, regex: new RegExp(`^${source}${anchored ? '$' : ''}`) };
}

/** Length used to rank a matching rule: the pattern's length without wildcards (the RFC's "most octets"). */
function ruleLength(rule: RobotsRule): number {
  return rule.pattern.replace(/[*$]/g, '').length;
}

/**
 * The policy of robots.txt `text` for the agent whose product token is `agent` (e.g. "pith").
 */
export function parseRobots(text: string, agent: string): RobotsPolicy {
  const token = agent.toLowerCase();
  type Group = { agents: string[]; rules: RobotsRule[]; crawlDelayS: number | null };
  const groups: Group[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.slice(0, ROBOTS_MAX_CHARS).split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (current === null || !lastWasAgent) {
        current = { agents: [], rules: [], crawlDelayS: null };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (current === null) continue; // rules before any User-agent line belong to no group
    if (key === 'allow' || key === 'disallow') {
      if (value === '') continue; // "Disallow:" with no path allows everything
      current.rules.push(compileRule(key === 'allow', value));
    } else if (key === 'crawl-delay') {
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelayS = seconds;
    }
  }
  const matches = (name: string): boolean => name !== '*' && name !== '' && token.startsWith(name);
  let chosen = groups.filter((g) => g.agents.some(matches));
  if (chosen.length === 0) chosen = groups.filter((g) => g.agents.includes('*'));
  if (chosen.length === 0) return ALLOW_ALL;
  // Several groups for the same agent are merged (RFC 9309 §2.2.1).
  const rules = chosen.flatMap((g) => g.rules);
  const delays = chosen.map((g) => g.crawlDelayS).filter((d): d is number => d !== null);
  return { rules, crawlDelayS: delays.length === 0 ? null : Math.max(...delays), disallowAll: false };
}

/** Whether `pathAndQuery` (the URL's path plus its query, e.g. "/a/b?c=1") may be fetched under `policy`. */
export function isAllowed(policy: RobotsPolicy, pathAndQuery: string): boolean {
  if (policy.disallowAll) return false;
  const path = normalisePercent(pathAndQuery === '' ? '/' : pathAndQuery);
  if (path === '/robots.txt') return true;
  let best: RobotsRule | null = null;
  let bestLength = -1;
  for (const rule of policy.rules) {
    const hit = rule.regex === null ? path.startsWith(rule.pattern) : rule.regex.test(path);
    if (!hit) continue;
    const length = ruleLength(rule);
    if (length > bestLength || (length === bestLength && rule.allow && best !== null && !best.allow)) {
      best = rule;
      bestLength = length;
    }
  }
  return best === null || best.allow;
}

/** The policy when robots.txt answered `status` without a usable body (RFC 9309 §2.3.1). */
export function robotsFromStatus(status: number): RobotsPolicy {
  return status >= 400 && status < 500 ? ALLOW_ALL : DISALLOW_ALL;
}
