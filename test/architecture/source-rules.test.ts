/**
 * The rules docs/architecture.md states of the generator's modules, checked on the source as it stands:
 * imports go down the flow and never up; no output imports another output's modules; the runtime-neutral
 * folders import nothing of Node; the edge function loads neither zod nor any of the build; and the
 * WebAssembly sources (AssemblyScript, which the lint cannot parse) keep the lint's sizes. The lint
 * (biome.json) holds the rest: no import cycles, functions under 60 lines and modules under 250.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const GENERATOR = path.join(ROOT, 'generator');

/** What each folder of `generator/` may import at run time (its own modules included); the flow runs down. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  shared: ['shared'],
  // The synonym table's format is the search's own analysis of an entry.
  schemas: ['schemas', 'shared', 'search/synonyms.ts'],
  search: ['search', 'semantic', 'shared'],
  semantic: ['semantic', 'search', 'shared'],
  edge: ['edge', 'search', 'shared'],
  mcp: ['mcp', 'edge', 'search', 'shared'],
  pipeline: ['pipeline', 'schemas', 'search', 'semantic', 'shared', 'launch.mjs'],
  server: ['server', 'pipeline', 'edge', 'mcp', 'schemas', 'search', 'semantic', 'shared', 'launch.mjs'],
  'launch.mjs': ['heap-limit.mjs'],
  'heap-limit.mjs': [],
};

/** Folders whose modules run at the edge or on either side: no Node module, whatever its spelling. */
const RUNTIME_NEUTRAL = ['shared', 'schemas', 'search', 'semantic', 'edge', 'mcp'];
/** A build-time script beside the WebAssembly sources: it compiles them on Node, and the edge imports only its output. */
const NODE_SCRIPTS = new Set(['search/wasm/compile-block-passes.ts']);
const NODE_MODULES = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

const OUTPUTS = 'pipeline/outputs/';
/** The outputs' shared folder: records as the API answers them, which the API files and the record pages both write. */
const SHARED_OUTPUTS = 'records';

interface Import {
  from: string;
  /** A module of `generator/` (`pipeline/outputs/api/api-files.ts`), or a package or Node module as written. */
  target: string;
  local: boolean;
  typeOnly: boolean;
}

const STATIC_IMPORT = /^(?:import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)|\bnew URL\(\s*['"](\.{1,2}\/[^'"]+\.(?:ts|mjs|js))['"]/g;

/** Every import of a module (`file`, relative to `generator/`), static and dynamic, and the workers it starts. */
function importsOf(file: string, text: string): Import[] {
  const found = [
    ...[...text.matchAll(STATIC_IMPORT)].map((match) => ({ spec: match[2]!, typeOnly: match[1] !== undefined })),
    ...[...text.matchAll(DYNAMIC_IMPORT)].map((match) => ({ spec: (match[1] ?? match[2])!, typeOnly: false })),
  ];
  return found.map(({ spec, typeOnly }) => {
    const local = spec.startsWith('.');
    const target = local ? path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)) : spec;
    return { from: file, target, local, typeOnly };
  });
}

const folderOf = (file: string) => file.split('/')[0]!;
/** `api` for `pipeline/outputs/api/route-files.ts`; none for the outputs' shared modules beside the folders. */
const outputOf = (file: string) => (file.startsWith(OUTPUTS) ? file.slice(OUTPUTS.length).split('/').slice(0, -1)[0] : undefined);

/** Each import that breaks a rule, as `from -> target: why`. */
function violations(imports: readonly Import[]): string[] {
  const found: string[] = [];
  for (const { from, target, local, typeOnly } of imports) {
    const say = (why: string) => found.push(`${from} -> ${target}: ${why}`);
    if (!local) {
      if (NODE_MODULES.has(target) && RUNTIME_NEUTRAL.includes(folderOf(from)) && !NODE_SCRIPTS.has(from))
        say('Node in a runtime-neutral module');
      continue;
    }
    if (target.startsWith('..')) continue; // outside generator/ (package.json, node_modules' cache)
    const allowed = MAY_IMPORT[folderOf(from)] ?? [];
    // A type-only import loads nothing: the answers' types are declared once, in schemas/, for every side.
    const typeFromSchemas = typeOnly && folderOf(target) === 'schemas';
    if (!typeFromSchemas && !allowed.some((folder) => target === folder || target.startsWith(`${folder}/`))) say('an upward import');
    const source = outputOf(from);
    const output = outputOf(target);
    // The build's own modules call the outputs; an output, or what outputs share, reaches into none.
    if (from.startsWith(OUTPUTS) && output && output !== SHARED_OUTPUTS && output !== source) say("another output's module");
  }
  return found;
}

function generatorSources(): Map<string, string> {
  const files = readdirSync(GENERATOR, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => /\.(?:ts|mjs|js)$/.test(file) && !file.endsWith('.as.ts'));
  return new Map(files.map((file) => [file, readFileSync(path.join(GENERATOR, file), 'utf8')]));
}

describe("the generator's imports", () => {
  const sources = generatorSources();
  const imports = [...sources].flatMap(([file, text]) => importsOf(file, text));

  it('are found in every module (the rules below see the whole graph)', () => {
    expect(sources.size).toBeGreaterThan(200);
    expect(imports.filter((entry) => entry.local).length).toBeGreaterThan(800);
    // Spot checks of what the scan must see: a multi-line import, a type-only one, a worker started by address.
    const targets = (file: string) => imports.filter((entry) => entry.from === file).map((entry) => entry.target);
    expect(targets('pipeline/build-site.ts')).toContain('pipeline/outputs/deploy/headers-file.ts');
    expect(imports).toContainEqual(expect.objectContaining({ from: 'search/search.ts', target: 'schemas/api.ts', typeOnly: true }));
    expect(targets('pipeline/helper/build-helper.ts')).toContain('pipeline/helper/helper-thread.ts');
  });

  it('go down the flow, keep Node out of runtime-neutral modules and never reach into another output', () => {
    expect(violations(imports)).toEqual([]);
  });

  it('would be caught breaking each rule', () => {
    const crafted = [
      ['pipeline/outputs/pages/home-page.ts', "import { buildApiFiles } from '../api/api-files.ts';"],
      ['pipeline/outputs/paged-collections.ts', "import type { Page } from './pages/page-document.ts';"],
      ['shared/policy.ts', "import {\n  collections,\n} from '../schemas/collections.ts';"],
      ['edge/handler.ts', "import { readFileSync } from 'fs';"],
      ['search/search.ts', "const mod = await import('../pipeline/build-site.ts');"],
    ] as const;
    const found = violations(crafted.flatMap(([file, text]) => importsOf(file, text)));
    expect(found).toEqual([
      "pipeline/outputs/pages/home-page.ts -> pipeline/outputs/api/api-files.ts: another output's module",
      "pipeline/outputs/paged-collections.ts -> pipeline/outputs/pages/page-document.ts: another output's module",
      'shared/policy.ts -> schemas/collections.ts: an upward import',
      'edge/handler.ts -> fs: Node in a runtime-neutral module',
      'search/search.ts -> pipeline/build-site.ts: an upward import',
    ]);
  });
});

/** The modules a bundle of `entry` loads, following only the given kinds of import. */
function reachable(metafile: Metafile, entry: string, kinds: readonly string[]): string[] {
  const seen = new Set([entry]);
  const stack = [entry];
  while (stack.length > 0) {
    for (const { path: next, kind, external } of metafile.inputs[stack.pop()!]?.imports ?? []) {
      if (!kinds.includes(kind) || seen.has(next)) continue;
      seen.add(next);
      if (!external) stack.push(next);
    }
  }
  return [...seen];
}

describe('the edge function', () => {
  const ENTRY = 'netlify/edge-functions/api.ts';
  const forbidden = (modules: readonly string[]) =>
    modules.filter((file) => NODE_MODULES.has(file) || /^generator\/(?:pipeline|server|schemas)\//.test(file));

  it('loads neither zod nor the build for an API request, and the MCP endpoint it loads on demand no Node module', async () => {
    // Bundled as for a runtime without Node's modules: one of them anywhere in the graph fails the bundle.
    const { metafile } = await build({
      entryPoints: [path.join(ROOT, ENTRY)],
      absWorkingDir: ROOT,
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      outdir: 'unwritten',
      logLevel: 'silent',
    });
    const eager = reachable(metafile, ENTRY, ['import-statement']);
    expect(eager).toContain('generator/edge/handler.ts');
    expect(eager.filter((file) => file.includes('node_modules/zod/'))).toEqual([]);
    expect(forbidden(eager)).toEqual([]);
    const whole = reachable(metafile, ENTRY, ['import-statement', 'dynamic-import', 'require-call']);
    expect(whole).toContain('generator/mcp/mcp-handler.ts');
    expect(forbidden(whole)).toEqual([]);
  });
});

describe("the build's worker threads", () => {
  // Each thread loads its modules anew: one it never calls still costs every build its start. zod with the
  // collections' schemas, and the SVG parser, took the helper about 0.1 s of CPU in each cold build.
  const THREADS = ['generator/pipeline/helper/helper-thread.ts', 'generator/pipeline/emit/file-writer-thread.ts'];

  it.each(THREADS)('%s loads neither zod, the schemas nor the SVG parser', async (entry) => {
    const { metafile } = await build({
      entryPoints: [path.join(ROOT, entry)],
      absWorkingDir: ROOT,
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      outdir: 'unwritten',
      logLevel: 'silent',
    });
    const loaded = reachable(metafile, entry, ['import-statement', 'dynamic-import', 'require-call']);
    expect(loaded).toContain(entry);
    expect(loaded.filter((file) => /^(?:zod|saxes)(?:\/|$)|^generator\/schemas\/collections\.ts$/.test(file))).toEqual([]);
  });
});

/** The line count of each top-level function of an AssemblyScript module, from its first line to its closing brace. */
function functionLengths(text: string): { name: string; lines: number }[] {
  const lines = text.split('\n');
  const found: { name: string; lines: number }[] = [];
  lines.forEach((line, start) => {
    const name = /^(?:export )?function (\w+)/.exec(line)?.[1];
    if (!name) return;
    const end = line.trimEnd().endsWith('}') ? start : lines.findIndex((closing, index) => index > start && closing.startsWith('}'));
    found.push({ name, lines: end - start + 1 });
  });
  return found;
}

describe('the WebAssembly sources, which the lint does not read', () => {
  const WASM = path.join(GENERATOR, 'search', 'wasm');
  const modules = readdirSync(WASM).filter((file) => file.endsWith('.as.ts'));

  it('keep modules under 250 lines and functions under 60, as the lint does for the rest', () => {
    expect(modules.length).toBeGreaterThan(5);
    for (const file of modules) {
      const text = readFileSync(path.join(WASM, file), 'utf8');
      expect(text.trimEnd().split('\n').length, file).toBeLessThanOrEqual(250);
      expect(
        functionLengths(text)
          .filter(({ lines }) => lines > 60)
          .map(({ name }) => `${file}: ${name}`),
      ).toEqual([]);
    }
  });

  it('measures a function from its line to its closing brace', () => {
    const text =
      '// @inline\nexport function a(): i32 {\n  if (x) {\n    return 1;\n  }\n  return 0;\n}\n\nfunction b(): void {}\nfunction c(\n  at: i32,\n): void {\n  at++;\n}\n';
    expect(functionLengths(text)).toEqual([
      { name: 'a', lines: 6 },
      { name: 'b', lines: 1 },
      { name: 'c', lines: 5 },
    ]);
  });
});
