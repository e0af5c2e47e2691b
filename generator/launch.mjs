// Starts one of the generator's commands (`npm run build`, `check`, `serve`, `dev`, `npm start`) from a bundle of its
// TypeScript, made once per version of the source and kept under node_modules/.cache (safe to delete).
// Loading the ~130 modules one by one through the TypeScript loader took about 0.2 s of every command, and as
// much again in each of its worker threads; the bundle loads in a few milliseconds. Each module's
// `import.meta.url` stays its source file's, so files found next to the source are found as before.
// Without the bundler (it comes with tsx), the command runs through tsx as it would from the source.
//
// Usage: node generator/launch.mjs <entry, relative to generator/> [arguments...]
import { createHash } from 'node:crypto';
import { builtinModules, createRequire } from 'node:module';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runWithLargerHeap } from './heap-limit.mjs';

const GENERATOR = fileURLToPath(new URL('./', import.meta.url));
const CACHE = fileURLToPath(new URL('../node_modules/.cache/generator-bundle/', import.meta.url));
/** The commands' modules. */
const COMMANDS = ['pipeline/cli.ts', 'server/cli.ts', 'server/dev.ts', 'server/start.ts'];
/** Modules that a worker thread starts from (typescript-worker.ts). */
const WORKERS = [
  'server/dev/dev-builder.ts',
  'pipeline/helper/helper-thread.ts',
  'pipeline/outputs/semantic/embed-thread.ts',
  'pipeline/emit/damage-thread.ts',
  'pipeline/emit/file-writer-thread.ts',
];

/**
 * Packages bundled with the sources rather than loaded from node_modules: plain JavaScript that every build loads
 * (the build's thread all six, the helper thread marked and stemmer), where Node's module loader took most of the
 * time to load them, one module file at a time (zod's 106): 130 ms of CPU loaded apart, 45 ms bundled. Every
 * other package stays where it is (some read files beside their own code, or are loaded only by some requests).
 */
const BUNDLED = new Set(['zod', 'marked', 'js-yaml', 'feed', 'saxes', 'stemmer']);
const BUILTINS = new Set(builtinModules);
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Leaves every package import to node_modules but BUNDLED's, and what they import in turn (bundled with them). */
const bundledPackages = {
  name: 'bundled-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path: specifier, importer }) => {
      if (specifier.startsWith('node:') || BUILTINS.has(packageOf(specifier))) return { external: true };
      const fromPackage = importer.split(path.sep).includes('node_modules');
      return fromPackage || BUNDLED.has(packageOf(specifier)) ? undefined : { external: true };
    });
  },
};

/** The locked dependencies' versions (the bundle holds BUNDLED's code); empty where there is no lock file. */
function lockedDependencies() {
  try {
    return readFileSync(new URL('../package-lock.json', import.meta.url));
  } catch {
    return '';
  }
}

/** The bundle's name: a digest of every source file and their folder, the locked dependencies, the bundler's version and Node's. */
function bundleKey(esbuildVersion) {
  // The sources' folder too: a bundle holds each module's own absolute address (sourceUrls), so two checkouts
  // that share one node_modules must not share a bundle.
  const hash = createHash('sha256')
    .update(`${process.version}\0${esbuildVersion}\0${GENERATOR}\0`)
    .update(lockedDependencies())
    .update('\0');
  const files = readdirSync(GENERATOR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .sort();
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(GENERATOR, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 20);
}

/** Keeps each module's own `import.meta.url` (esbuild would give every module the bundle's). */
const sourceUrls = {
  name: 'source-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/** Every file of a bundle folder with the SHA-256 of its bytes, sorted (the marker and leases left out). */
function digestFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) =>
      entry.isFile() && entry.parentPath === dir ? entry.name !== 'complete' : entry.isFile() && !entry.parentPath.endsWith('leases'),
    )
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort()
    .map(
      (file) =>
        `${createHash('sha256')
          .update(readFileSync(path.join(dir, file)))
          .digest('hex')}  ${file}`,
    )
    .join('\n');
}

/**
 * Whether `dir` holds the bundle its name promises: its marker, written last, records the key and the digest
 * of every file, so a folder that was cut short, changed or copied in under the name is not trusted.
 */
export function isCompleteBundle(dir, key) {
  try {
    const marker = readFileSync(path.join(dir, 'complete'), 'utf8');
    return marker === `${key}\n${digestFiles(dir)}`;
  } catch {
    return false;
  }
}

/** Whether process `pid` is still running. */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Removes the bundles other than `key` that no running process uses. A process leases the bundle it runs
 * from (a file named by its pid under `leases/`), since it loads modules from it long after it started (the
 * MCP endpoint on its first request); a bundle removed under a running server made that endpoint fail.
 */
export function removeUnusedBundles(cache, key) {
  for (const name of readdirSync(cache)) {
    if (name.startsWith(key)) continue;
    let leases = [];
    try {
      leases = readdirSync(path.join(cache, name, 'leases'));
    } catch {}
    if (leases.some((pid) => isRunning(Number(pid)))) continue;
    rmSync(path.join(cache, name), { recursive: true, force: true });
  }
}

/** Marks `dir` as used by this process until it exits. */
export function leaseBundle(dir) {
  const lease = path.join(dir, 'leases', String(process.pid));
  try {
    mkdirSync(path.dirname(lease), { recursive: true });
    writeFileSync(lease, '');
    process.once('exit', () => {
      try {
        unlinkSync(lease);
      } catch {}
    });
  } catch {
    // A read-only cache: nothing removes bundles there either.
  }
}

/** The installed bundler's version, read from its package file: loading the bundler itself took 0.1 s of every command. */
function bundlerVersion() {
  try {
    const file = createRequire(import.meta.url).resolve('esbuild/package.json');
    return String(JSON.parse(readFileSync(file, 'utf8')).version);
  } catch {
    return undefined;
  }
}

/** The folder of the current bundle, made when missing; undefined when it cannot be made here. */
export async function ensureBundle() {
  const version = bundlerVersion();
  if (version === undefined) return undefined;
  const key = bundleKey(version);
  const dir = path.join(CACHE, key);
  if (isCompleteBundle(dir, key)) return dir;
  // The bundler is loaded only to bundle.
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined;
  }
  // A folder under the name that is not the bundle it names is made again.
  rmSync(dir, { recursive: true, force: true });
  // Another command may bundle at the same time: each writes its own folder and renames it into place.
  const staging = `${dir}.tmp-${process.pid}`;
  try {
    await esbuild.build({
      entryPoints: [...COMMANDS, ...WORKERS].map((entry) => path.join(GENERATOR, entry)),
      outbase: GENERATOR,
      outdir: staging,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node.split('.')[0]}`,
      define: { __GENERATOR_BUNDLE__: JSON.stringify(dir) },
      plugins: [bundledPackages, sourceUrls],
      logLevel: 'silent',
    });
    writeFileSync(path.join(staging, 'complete'), `${key}\n${digestFiles(staging)}`);
    // Bundles of older sources are not needed again, once no running process loads from them.
    removeUnusedBundles(CACHE, key);
  } catch {
    // A read-only cache folder, or source the bundler refuses (tsx then reports the error in the source).
    try {
      rmSync(staging, { recursive: true, force: true });
    } catch {}
    return undefined;
  }
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}

/** The bundled module for a source entry (a URL or a path relative to generator/). */
export function bundledEntry(dir, entry) {
  const relative = entry.startsWith('file:') ? path.relative(GENERATOR, fileURLToPath(entry)) : entry;
  return pathToFileURL(path.join(dir, relative.replace(/\.ts$/, '.mjs'))).href;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [entry] = process.argv.slice(2);
  if (!COMMANDS.includes(entry)) {
    console.error(`Usage: node generator/launch.mjs <${COMMANDS.join('|')}> [arguments...]`);
    process.exit(2);
  }
  // A build too large for V8's default heap runs in a child process given more (heap-limit.mjs).
  if (!runWithLargerHeap(process.argv[1], entry, process.argv.slice(3))) await launch(entry);
}

async function launch(entry) {
  // The command reads its own arguments from process.argv, as when started directly.
  process.argv.splice(1, 2, path.join(GENERATOR, entry));
  const dir = await ensureBundle();
  if (dir) {
    leaseBundle(dir);
    await import(bundledEntry(dir, entry));
  } else {
    await import('tsx/esm/api').then((tsx) => tsx.register());
    await import(pathToFileURL(path.join(GENERATOR, entry)).href);
  }
}
