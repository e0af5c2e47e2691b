/**
 * The build's settings are resolved in one place (build-settings.ts), each with its parse rule and message,
 * and the nothing-changed check hashes the resolved object: changing any one setting builds again.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprintBuild } from '../../generator/pipeline/build-fingerprint.ts';
import { type Environment, repositoryFromUrl, resolveBuildSettings } from '../../generator/pipeline/build-settings.ts';
import { BUILD_ENV, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { fixtureDir, removeFixtureDirs, VALID_FIXTURE } from '../helpers/fixture.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('resolveBuildSettings', () => {
  it('takes the content manager backend from the environment', () => {
    expect(resolveBuildSettings({}).cmsBackend).toEqual({ name: 'git-gateway', branch: 'main' });
    const env = { CMS_BACKEND: 'github', REPOSITORY_URL: 'https://github.com/agency/site', BRANCH: 'live' };
    expect(resolveBuildSettings(env).cmsBackend).toEqual({ name: 'github', repo: 'agency/site', branch: 'live' });
    expect(resolveBuildSettings({ ...env, CMS_REPO: 'other/repo', CMS_BRANCH: 'edits' }).cmsBackend).toEqual({
      name: 'github',
      repo: 'other/repo',
      branch: 'edits',
    });
    expect(() => resolveBuildSettings({ CMS_BACKEND: 'github' })).toThrow('CMS_REPO');
    expect(() => resolveBuildSettings({ CMS_BACKEND: 'ftp' })).toThrow('CMS_BACKEND must be git-gateway or github, not "ftp"');
    expect(() => resolveBuildSettings({ CMS_REPO: 'no-owner' })).toThrow('CMS_REPO must be owner/name, not "no-owner"');
  });

  it('keeps a dot in a repository name, whatever the form of the address', () => {
    for (const url of [
      'https://github.com/owner/site.io',
      'https://github.com/owner/site.io/',
      'https://github.com/owner/site.io.git',
      'git@github.com:owner/site.io.git',
      'ssh://git@github.com/owner/site.io',
    ]) {
      expect(repositoryFromUrl(url), url).toBe('owner/site.io');
    }
    expect(repositoryFromUrl('https://gitlab.com/owner/site')).toBeUndefined();
    expect(repositoryFromUrl('https://github.com/owner')).toBeUndefined();
    const env = { CMS_BACKEND: 'github', REPOSITORY_URL: 'https://github.com/owner/my.site.git' };
    expect(resolveBuildSettings(env).cmsBackend).toMatchObject({ repo: 'owner/my.site' });
  });

  it('says which setting is wrong and what it takes', () => {
    const cases: [Environment, string][] = [
      [{ SITE_URL: 'example.com' }, 'SITE_URL "example.com" is not an absolute http(s) URL'],
      [{ CONTEXT: 'production', URL: 'ftp://x' }, 'URL "ftp://x" is not an absolute http(s) URL'],
      [{ CONTEXT: 'deploy-preview', DEPLOY_PRIME_URL: '/x' }, 'DEPLOY_PRIME_URL "/x" is not an absolute http(s) URL'],
      [{ SOURCE_DATE_EPOCH: '1.5' }, 'SOURCE_DATE_EPOCH must be whole seconds since 1970, not "1.5"'],
      [{ MAX_TEXT_KB: '0' }, 'MAX_TEXT_KB must be a positive number, not "0"'],
      [{ MAX_IMAGE_MB: 'big' }, 'MAX_IMAGE_MB must be a positive number, not "big"'],
      [{ SEARCH_INDEX_BUDGET_MB: '-1' }, 'SEARCH_INDEX_BUDGET_MB must be a positive number of megabytes, not "-1"'],
    ];
    for (const [env, message] of cases) expect(() => resolveBuildSettings(env), message).toThrow(message);
  });

  it('takes the address from the command first, then SITE_URL, then Netlify, then the served address', () => {
    const served = { servedAt: 'http://127.0.0.1:8080' };
    expect(resolveBuildSettings({}, served).siteUrl).toBe('http://127.0.0.1:8080');
    expect(resolveBuildSettings({}).siteUrl).toBeNull();
    expect(resolveBuildSettings({ CONTEXT: 'production', URL: 'https://prod.example/' }, served).siteUrl).toBe('https://prod.example');
    expect(resolveBuildSettings({ SITE_URL: 'https://api.example' }, served).siteUrl).toBe('https://api.example');
    expect(resolveBuildSettings({ SITE_URL: 'https://api.example' }, { siteUrl: 'https://cli.example' }).siteUrl).toBe(
      'https://cli.example',
    );
  });
});

describe('the nothing-changed fingerprint', () => {
  const outDir = path.join(tempDir('settings'), 'dist');
  const fingerprint = (env: Environment, preview = { drafts: false, future: false }) =>
    fingerprintBuild({ contentDir: VALID_FIXTURE, outDir, settings: resolveBuildSettings(env, { preview }) }).value;

  it('changes with every setting, one at a time', () => {
    const base: Environment = { SOURCE_DATE_EPOCH: '1795000000' };
    const changes: Environment[] = [
      { SITE_URL: 'https://a.example' },
      { CONTEXT: 'production', URL: 'https://prod.example' },
      { CONTEXT: 'deploy-preview', DEPLOY_PRIME_URL: 'https://preview.example' },
      { SOURCE_DATE_EPOCH: '1795000001' },
      { MAX_TEXT_KB: '10' },
      { MAX_IMAGE_MB: '2' },
      { SEARCH_INDEX_BUDGET_MB: '20' },
      { CMS_BACKEND: 'github', CMS_REPO: 'a/b' },
      { CMS_REPO: 'a/b' },
      { REPOSITORY_URL: 'https://github.com/a/b.io' },
      { CMS_BRANCH: 'edits' },
      { BRANCH: 'live' },
    ];
    const seen = new Set([fingerprint(base)]);
    for (const change of changes) {
      const value = fingerprint({ ...base, ...change });
      expect(seen.has(value), JSON.stringify(change)).toBe(false);
      seen.add(value);
    }
    for (const preview of [
      { drafts: true, future: false },
      { drafts: false, future: true },
    ]) {
      const value = fingerprint(base, preview);
      expect(seen.has(value), JSON.stringify(preview)).toBe(false);
      seen.add(value);
    }
    // An unrelated variable is no change.
    expect(fingerprint({ ...base, UNRELATED: 'x' })).toBe(fingerprint(base));
  });

  it('is the only reader of the environment in the build pipeline', () => {
    const dir = path.join(ROOT, 'generator/pipeline');
    const readers = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.startsWith('outputs/search/'))
      // BUILD_DEBUG only says whether to print stack traces: no setting of the build.
      .filter((file) =>
        /\benv\.[A-Z_]+|\benv\[/.test(readFileSync(path.join(dir, file), 'utf8').replaceAll('process.env.BUILD_DEBUG', '')),
      );
    expect(readers).toEqual(['build-settings.ts']);
  });
});

describe('npm run build after a change of setting', () => {
  it('builds again when only the content manager branch changed, and writes it into the configuration', async () => {
    const content = fixtureDir('valid');
    const out = path.join(tempDir('cms-branch'), 'dist');
    const run = async (env: Environment) => {
      const args = ['generator/launch.mjs', 'pipeline/cli.ts', 'build', '--content', content, '--out', out];
      const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...BUILD_ENV, ...env } });
      return stdout.split('\n')[0]!;
    };
    expect(await run({ CMS_BRANCH: 'one' })).toMatch(/: \d+ files, \d+ written/);
    expect(await run({ CMS_BRANCH: 'one' })).toMatch(/nothing changed/);
    expect(await run({ CMS_BRANCH: 'two' })).toMatch(/: \d+ files, \d+ written/);
    expect(readFileSync(path.join(out, outputPath(`${ADDRESS.admin}config.yml`)), 'utf8')).toMatch(/branch: two/);
  }, 60_000);
});
