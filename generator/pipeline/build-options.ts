/** The two facts a build takes from its environment: the site's address and the build time. */
import type { Site } from '../schemas/site.ts';

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
