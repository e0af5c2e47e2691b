/**
 * Local is local: `npm start` and `npm run dev` build for the address they serve on, so every `url`, feed,
 * sitemap entry, llms.txt line, the OpenAPI `servers` and the editor's "View Live" stay on the local site;
 * SITE_URL still wins when set; a SITE_URL with a path is refused with a clear message. Real processes, as
 * the npm scripts start them, on free ports.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { ADDRESS } from '../helpers/addresses.ts';
import { scratchDir } from '../helpers/scratch.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function outDir(): string {
  const dir = scratchDir('local-addresses');
  dirs.push(dir);
  return path.join(dir, 'dist');
}

/** The environment of a terminal with no deploy variables; `extra` adds some. */
function localEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', SOURCE_DATE_EPOCH: '1795000000', ...extra };
  for (const name of ['SITE_URL', 'URL', 'DEPLOY_PRIME_URL', 'CONTEXT']) if (!(name in extra)) delete env[name];
  return env;
}

/** Starts a command; resolves with the address it says it serves at, or rejects with its output when it exits. */
function serving(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, ['generator/launch.mjs', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stderr!.on('data', (data) => (output += data));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (data) => {
      output += data;
      const match = /Serving .* at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

async function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['generator/launch.mjs', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (data) => (stdout += data));
  child.stderr!.on('data', (data) => (stderr += data));
  const [code] = await once(child, 'exit');
  return { code: code as number, stdout, stderr };
}

const text = async (url: string) => (await fetch(url)).text();

/** Every absolute address the site gives, gathered from the outputs that carry them. */
async function addressesOf(base: string): Promise<string[]> {
  const list = (await (await fetch(`${base}/v1/services/list`)).json()) as { data: { url: string }[] };
  const openapi = (await (await fetch(`${base}/v1/openapi.json`)).json()) as { servers: { url: string }[] };
  const page = await text(`${base}/`);
  return [
    ...list.data.map((item) => item.url),
    openapi.servers[0]!.url,
    ...[...(await text(`${base}${ADDRESS.sitemap}`)).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!),
    ...[...(await text(`${base}${ADDRESS.rss}`)).matchAll(/<link>([^<]+)<\/link>/g)].map((match) => match[1]!),
    ...[...(await text(`${base}${ADDRESS.llmsTxt}`)).matchAll(/\]\((https?:[^)]+)\)/g)].map((match) => match[1]!),
    ...[...page.matchAll(/<link rel="alternate"[^>]* href="([^"]+)"/g)].map((match) => match[1]!),
    /^site_url: (\S+)$/m.exec(await text(`${base}${ADDRESS.admin}config.yml`))![1]!,
  ];
}

describe('npm start', () => {
  it('builds for the address it serves on: every link, feed, url, the OpenAPI servers and the editor stay local', async () => {
    const base = await serving(['server/start.ts', '--content', VALID_FIXTURE, '--out', outDir()], localEnv());
    const addresses = await addressesOf(base);
    expect(addresses.length).toBeGreaterThan(10);
    expect(addresses.filter((address) => !address.startsWith(`${base}/`) && address !== `${base}/v1` && address !== base)).toEqual([]);
    // And they answer: a record's page, the API root from the OpenAPI servers.
    const list = (await (await fetch(`${base}/v1/services/list`)).json()) as { data: { url: string }[] };
    expect((await fetch(list.data[0]!.url)).status).toBe(200);
    expect((await fetch(`${addresses[list.data.length]}/health`)).status).toBe(200);
  });

  it('builds for SITE_URL when it is set', async () => {
    const base = await serving(
      ['server/start.ts', '--content', VALID_FIXTURE, '--out', outDir()],
      localEnv({ SITE_URL: 'https://api.example.test' }),
    );
    const list = (await (await fetch(`${base}/v1/services/list`)).json()) as { data: { url: string }[] };
    expect(list.data[0]!.url).toMatch(/^https:\/\/api\.example\.test\/services\//);
  });

  it('refuses a SITE_URL with a path, saying why and what to do, and builds nothing', async () => {
    const out = outDir();
    const result = await run(
      ['server/start.ts', '--content', VALID_FIXTURE, '--out', out],
      localEnv({ SITE_URL: 'https://example.test/sub/' }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/SITE_URL "https:\/\/example\.test\/sub\/" has a path: .*\/sub\/.*Unset SITE_URL/s);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });

  it('--help prints the usage and exits 0 without building', async () => {
    const out = outDir();
    const result = await run(['server/start.ts', '--out', out, '--help'], localEnv());
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('npm start [-- --content DIR --out DIR]');
    expect(existsSync(out)).toBe(false);
  });
});

describe('npm run dev', () => {
  it('builds for the address it serves on', async () => {
    const base = await serving(['server/dev.ts', '--content', VALID_FIXTURE, '--out', outDir()], localEnv({ CMS_PORT: '0' }));
    const addresses = await addressesOf(base);
    expect(addresses.filter((address) => !address.startsWith(base))).toEqual([]);
  });

  it('refuses a SITE_URL with a path', async () => {
    const result = await run(
      ['server/dev.ts', '--content', VALID_FIXTURE, '--out', outDir()],
      localEnv({ SITE_URL: 'http://localhost:8080/preview' }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('has a path');
  });
});
