/** The two facts a build takes from its environment: the site's address and the build time. */
import type { Site } from '../schemas/site.ts';
import { type ContentLimits, DEFAULT_LIMITS } from './load/scan-content.ts';

/**
 * CONTRACT "Addresses": SITE_URL, else Netlify's URL (production) or DEPLOY_PRIME_URL (previews and
 * branch deploys), else `site_url` from site.yaml.
 */
export function resolveSiteUrl(env: Record<string, string | undefined>, site: Site): string {
  const fromNetlify = env.CONTEXT === 'production' ? env.URL : env.CONTEXT ? env.DEPLOY_PRIME_URL : undefined;
  const chosen = env.SITE_URL || fromNetlify || site.site_url;
  if (!/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(chosen)) throw new Error(`site address "${chosen}" is not an absolute http(s) URL`);
  return chosen.replace(/\/+$/, '');
}

/** SOURCE_DATE_EPOCH (seconds) fixes the build time, so two builds of the same content match byte for byte. */
export function resolveBuildTime(env: Record<string, string | undefined>, now = new Date()): Date {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch === undefined || epoch === '') return now;
  if (!/^\d+$/.test(epoch)) throw new Error(`SOURCE_DATE_EPOCH must be whole seconds since 1970, not "${epoch}"`);
  return new Date(Number(epoch) * 1000);
}

/** ISO 8601 UTC to the second, as the API writes times. */
export const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A positive number from the environment, or the default when unset. */
function readPositive(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^\d+(\.\d+)?$/.test(value) || !(Number(value) > 0)) throw new Error(`${name} must be a positive number, not "${value}"`);
  return Number(value);
}

/** MAX_TEXT_KB and MAX_IMAGE_MB: the largest Markdown or YAML file and the largest image a build accepts. */
export function resolveContentLimits(env: Record<string, string | undefined>): ContentLimits {
  return {
    textBytes: readPositive(env, 'MAX_TEXT_KB', DEFAULT_LIMITS.textBytes / 1024) * 1024,
    imageBytes: readPositive(env, 'MAX_IMAGE_MB', DEFAULT_LIMITS.imageBytes / 1024 / 1024) * 1024 * 1024,
  };
}
