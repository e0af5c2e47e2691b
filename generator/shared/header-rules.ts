/**
 * Header rules in Netlify's `_headers` format: the build writes them (pipeline/outputs/deploy/headers-file.ts)
 * and the local server reads them back and applies them with Netlify's matching, so a file is served here
 * with the headers it gets when deployed.
 */

/** The file in the build output that holds the rules. */
export const HEADERS_FILE = '_headers';

/** Headers for the paths a pattern matches (`/api/*`: everything under /api/; `/`: the root only). */
export interface HeaderRule {
  path: string;
  headers: Record<string, string>;
}

/** A path line, then its headers indented. */
export function formatHeaderRules(rules: readonly HeaderRule[]): string {
  return rules
    .map(
      (rule) =>
        `${rule.path}\n${Object.entries(rule.headers)
          .map(([name, value]) => `  ${name}: ${value}\n`)
          .join('')}`,
    )
    .join('\n');
}

/** Netlify's `_headers` format: a path line, then `Name: value` lines indented beneath it; `#` starts a comment. */
export function parseHeaderRules(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ path: line.trim(), headers: {} });
      continue;
    }
    const colon = line.indexOf(':');
    const rule = rules.at(-1);
    if (rule && colon > 0) rule.headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return rules;
}

/** `/api/*` matches every path under /api/; any other pattern matches itself only. */
function matches(pattern: string, pathname: string): boolean {
  return pattern.endsWith('/*') ? pathname.startsWith(pattern.slice(0, -1)) : pathname === pattern;
}

/** The headers of every rule that matches `pathname`, later rules winning a name both set. */
export function headersFor(rules: readonly HeaderRule[], pathname: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of rules) if (matches(rule.path, pathname)) Object.assign(headers, rule.headers);
  return headers;
}
