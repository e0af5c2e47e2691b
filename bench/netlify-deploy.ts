/**
 * Netlify deploys as Netlify runs them, at a size: each from a fresh checkout (the content copied anew: new
 * inodes, new times, no output), the build cache plugin's hooks called with Netlify's own cache utilities
 * around netlify.toml's own build command. The first deploy finds an empty cache (cold); the second follows
 * a push that edits one article's body. Prints each step's time, what the build parsed and wrote, and
 * whether the second deploy's output equals a clean build's, file for file (by the digests both record).
 * Usage: tsx bench/netlify-deploy.ts [ARTICLES=4000]
 */
import './without-vectors.ts';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bindOpts } from '@netlify/cache-utils';
import { readPreviousOutput } from '../generator/pipeline/emit/previous-output.ts';
import { writeSyntheticContent } from '../test/helpers/synthetic-content.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ENV = { SOURCE_DATE_EPOCH: '1795000000', SITE_URL: 'https://bench.example.test', SEMANTIC_SEARCH: 'off' };
const COMMAND = /^\s*command\s*=\s*"([^"]+)"/m.exec(readFileSync(path.join(ROOT, 'netlify.toml'), 'utf8'))![1]!;

interface Plugin {
  onPreBuild(options: unknown): Promise<void>;
  onSuccess(options: unknown): Promise<void>;
}

/** Runs a build command (netlify.toml's by default) for this content and output; its summary line. */
function build(content: string, out: string, command = COMMAND): string {
  const [program, ...args] = [...command.split(' '), ...(command.includes(' -- ') ? [] : ['--']), '--content', content, '--out', out];
  const stdout = execFileSync(program!, args, { cwd: ROOT, env: { ...process.env, ...ENV }, encoding: 'utf8' });
  return stdout.split('\n').find((line) => line.includes(` -> ${out}: `)) ?? '';
}

const removeOutput = (out: string) => {
  for (const suffix of ['', '.digests.json', '.digests', '.build.bin', '.inputs.json', '.inputs', '.kept.bin', '.load', '.search'])
    rmSync(`${out}${suffix}`, { recursive: true, force: true });
};

const digestsOf = (out: string) => readPreviousOutput(path.resolve(out))?.digests ?? new Map<string, string>();

async function timed<T>(run: () => T | Promise<T>): Promise<[T, string]> {
  const started = performance.now();
  const result = await run();
  return [result, `${((performance.now() - started) / 1000).toFixed(2)} s`];
}

export async function benchNetlifyDeploy(articles = Number(process.env.ARTICLES ?? 4000)): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bench-netlify-'));
  const pluginFile = '../netlify/plugins/build-cache/index.js';
  const plugin = (await import(pluginFile)) as Plugin;
  const [source, content, out, cacheDir] = ['source', 'content', 'dist', 'cache'].map((name) => path.join(root, name)) as [
    string,
    string,
    string,
    string,
  ];
  const hooks = { utils: { cache: bindOpts({ cacheDir }) }, constants: { PUBLISH_DIR: out } };
  const log = console.log;
  try {
    await writeSyntheticContent(source, { articles });
    log(`\n## Netlify deploys, ${articles.toLocaleString('en')} articles (fresh checkout each; \`${COMMAND}\`)\n`);
    log('| deploy | restore | build | save | the build says |');
    log('|---|---:|---:|---:|---|');
    /** The second deploy's output against a clean build of the same content, before the save moves it away. */
    const compare = () => {
      const reference = path.join(root, 'reference');
      build(content, reference, 'npm run build');
      const [left, right] = [digestsOf(out), digestsOf(reference)];
      const differ = [...new Set([...left.keys(), ...right.keys()])].filter((file) => left.get(file) !== right.get(file));
      const equal = differ.length === 0 ? 'yes' : `NO, ${differ.length} files differ (${differ.slice(0, 3).join(', ')})`;
      return `output equals a clean build: ${equal} (${left.size.toLocaleString('en')} files by digest)`;
    };
    const deploy = async (what: string, check?: () => string) => {
      rmSync(content, { recursive: true, force: true });
      cpSync(source, content, { recursive: true });
      removeOutput(out);
      console.log = () => {};
      const [, restore] = await timed(() => plugin.onPreBuild(hooks));
      console.log = log;
      const [line, built] = await timed(() => build(content, out));
      const checked = check?.();
      console.log = () => {};
      const [, save] = await timed(() => plugin.onSuccess(hooks));
      console.log = log;
      log(`| ${what} | ${restore} | ${built} | ${save} | ${line.replace(/^.*?: /, '')} |`);
      if (checked) log(`\nAfter the second deploy, ${checked}`);
    };
    await deploy('first (empty cache: cold)');
    const dir = path.join(source, 'intelligence');
    const name = readdirSync(dir).sort()[Math.floor(articles / 2)]!;
    writeFileSync(path.join(dir, name), `${readFileSync(path.join(dir, name), 'utf8')}\nOne more sentence about checkout latency.\n`);
    await deploy('after a push editing one article', compare);
  } finally {
    console.log = log;
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchNetlifyDeploy();
