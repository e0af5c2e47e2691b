/**
 * Every setting a build depends on, resolved once from the environment and the command's options, each with
 * its parse rule and its error message. The rest of the build takes the resolved object, and the
 * nothing-changed check hashes it whole (build-fingerprint.ts), so no setting can be forgotten there.
 * Light on purpose: the command resolves it before it loads the generator.
 */
import type { Preview } from './catalogue/publish.ts';
import { type ContentLimits, DEFAULT_LIMITS } from './load/content-limits.ts';
import type { CmsBackend } from './outputs/cms/cms-config.ts';

export type Environment = Record<string, string | undefined>;

export interface BuildSettings {
  /**
   * The site's address, no trailing slash: the command's own (`--site-url`), else SITE_URL, else Netlify's
   * URL (production) or DEPLOY_PRIME_URL (previews and branch deploys), else the address a local command
   * serves on (`servedAt`); null leaves it to `site_url` in site.yaml (docs/api.md "Addresses").
   */
  siteUrl: string | null;
  /** SOURCE_DATE_EPOCH in seconds: the build time, fixed; null when the build takes the clock's. */
  fixedTime: number | null;
  /** MAX_TEXT_KB and MAX_IMAGE_MB, in bytes. */
  limits: ContentLimits;
  /** SEARCH_INDEX_BUDGET_MB: the largest search index, all its parts together. */
  searchIndexBudgetMb: number;
  /** SEMANTIC_SEARCH: `on` (the default) or `off`; off builds no vectors and needs no model (docs/semantic-search.md). */
  semanticSearch: boolean;
  /** Where the content manager commits: CMS_BACKEND, CMS_REPO or REPOSITORY_URL, CMS_BRANCH or BRANCH; dev's local proxy. */
  cmsBackend: CmsBackend;
  /** `--drafts` and `--future`. */
  preview: Preview;
}

/** What a command says beside the environment. */
export interface CommandSettings {
  preview?: Preview;
  /** An address given on the command line: it beats every variable. */
  siteUrl?: string;
  /** The address a local command (npm start, npm run dev) serves on: used when no variable names one. */
  servedAt?: string;
  /** The content manager's backend when the command decides it (npm run dev: the local proxy). */
  cmsBackend?: CmsBackend;
}

/**
 * Default budget for the whole search index. A query reads only its own parts, so this bounds what a deploy
 * uploads and stores, not what a search costs: about 40 MB per 10,000 articles of 400 words.
 */
export const DEFAULT_SEARCH_INDEX_BUDGET_MB = 500;

/** An absolute http(s) address without its trailing slashes; `name` says where it came from. */
function parseAddress(value: string, name: string): string {
  if (!/^https?:\/\/[^\s/]+(\/\S*)?$/.test(value)) throw new Error(`${name} "${value}" is not an absolute http(s) URL`);
  return value.replace(/\/+$/, '');
}

/** An address as the settings take it: the first given of the command's, SITE_URL, Netlify's, the served one. */
function resolveSiteUrl(env: Environment, command: CommandSettings): string | null {
  if (command.siteUrl) return parseAddress(command.siteUrl, '--site-url');
  if (env.SITE_URL) return parseAddress(env.SITE_URL, 'SITE_URL');
  const netlify = env.CONTEXT === 'production' ? 'URL' : env.CONTEXT ? 'DEPLOY_PRIME_URL' : undefined;
  if (netlify && env[netlify]) return parseAddress(env[netlify]!, netlify);
  return command.servedAt ? parseAddress(command.servedAt, 'the served address') : null;
}

/** The site's address: the settings' own, else site.yaml's. */
export function siteAddress(settings: BuildSettings, site: { site_url: string }): string {
  return settings.siteUrl ?? parseAddress(site.site_url, 'site_url in site.yaml');
}

/** SOURCE_DATE_EPOCH (seconds) fixes the build time, so two builds of the same content match byte for byte. */
function parseEpoch(env: Environment): number | null {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch === undefined || epoch === '') return null;
  if (!/^\d{1,12}$/.test(epoch)) throw new Error(`SOURCE_DATE_EPOCH must be whole seconds since 1970, not "${epoch}"`);
  return Number(epoch);
}

/** The build time: the fixed one, else now. */
export const buildTimeOf = (settings: BuildSettings, now = new Date()): Date =>
  settings.fixedTime === null ? now : new Date(settings.fixedTime * 1000);

/** ISO 8601 UTC to the second, as the API writes times. */
export const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A positive number from the environment, or the default when unset. */
function readPositive(env: Environment, name: string, fallback: number, unit: string): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,15}(\.\d{1,15})?$/.test(value) || !(Number(value) > 0)) {
    throw new Error(`${name} must be a positive number${unit}, not "${value}"`);
  }
  return Number(value);
}

/** `owner/name` from a GitHub address: https, ssh or scp-like, with or without `.git`; dots in names kept. */
export function repositoryFromUrl(url: string): string | undefined {
  const match = /github\.com[/:]([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)\/?$/.exec(url.trim());
  if (!match) return undefined;
  const name = match[2]!.endsWith('.git') ? match[2]!.slice(0, -'.git'.length) : match[2]!;
  return name ? `${match[1]}/${name}` : undefined;
}

/** The content manager's production backend from the environment. */
function resolveCmsBackend(env: Environment): CmsBackend {
  const name = env.CMS_BACKEND || 'git-gateway';
  if (name !== 'git-gateway' && name !== 'github') throw new Error(`CMS_BACKEND must be git-gateway or github, not "${name}"`);
  const repo = env.CMS_REPO || (env.REPOSITORY_URL ? repositoryFromUrl(env.REPOSITORY_URL) : undefined);
  if (env.CMS_REPO && !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(env.CMS_REPO)) {
    throw new Error(`CMS_REPO must be owner/name, not "${env.CMS_REPO}"`);
  }
  if (name === 'github' && !repo) throw new Error('CMS_BACKEND=github needs CMS_REPO (owner/name) or a GitHub REPOSITORY_URL');
  return { name, ...(repo ? { repo } : {}), branch: env.CMS_BRANCH || env.BRANCH || 'main' };
}

/** SEMANTIC_SEARCH: on unless `off`. */
function parseSwitch(env: Environment, name: string): boolean {
  const value = env[name];
  if (value === undefined || value === '' || value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`${name} must be on or off, not "${value}"`);
}

/** Resolves every setting; a bad one throws its message, before anything is read or written. */
export function resolveBuildSettings(env: Environment, command: CommandSettings = {}): BuildSettings {
  return {
    siteUrl: resolveSiteUrl(env, command),
    fixedTime: parseEpoch(env),
    limits: {
      textBytes: readPositive(env, 'MAX_TEXT_KB', DEFAULT_LIMITS.textBytes / 1024, '') * 1024,
      imageBytes: readPositive(env, 'MAX_IMAGE_MB', DEFAULT_LIMITS.imageBytes / 1024 / 1024, '') * 1024 * 1024,
    },
    searchIndexBudgetMb: readPositive(env, 'SEARCH_INDEX_BUDGET_MB', DEFAULT_SEARCH_INDEX_BUDGET_MB, ' of megabytes'),
    semanticSearch: parseSwitch(env, 'SEMANTIC_SEARCH'),
    cmsBackend: command.cmsBackend ?? resolveCmsBackend(env),
    preview: { drafts: command.preview?.drafts ?? false, future: command.preview?.future ?? false },
  };
}
