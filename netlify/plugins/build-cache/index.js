// Keeps the last build's output, its records and what it read of the content in Netlify's build cache, so a
// deploy starts from the previous output as a local build does: `npm run build -- --in-place` (netlify.toml's
// command) then makes only the outputs an edit touched, writes only the files whose bytes changed into the
// folder in place, or says nothing changed. Netlify starts every build from a fresh checkout, so without this
// each deploy is a cold build. The cache is Netlify's own (`utils.cache`, @netlify/cache-utils).
//
// Cold cache (the first deploy, or after "Clear cache and deploy site"): nothing is restored and the build is
// cold. A cache that should not be trusted: clear it in Netlify, or set BUILD_CACHE=off for one deploy.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The output folder, the records kept beside it (generator/pipeline/emit, build-fingerprint.ts), the
 * load store (generator/pipeline/load/load-store.ts): a fresh checkout's files have new inodes, so the store
 * confirms each by its bytes, which is still far cheaper than parsing it again; and the search index's state
 * (generator/pipeline/outputs/search/search-store.ts), trusted only for parts of the output whose bytes it
 * knows, so the index is updated by term rather than written whole.
 */
const cachedPaths = (publishDir) => [
  publishDir,
  `${publishDir}.digests.json`,
  `${publishDir}.digests`,
  `${publishDir}.build.bin`,
  `${publishDir}.inputs.json`,
  `${publishDir}.inputs`,
  `${publishDir}.kept.bin`,
  `${publishDir}.load`,
  `${publishDir}.search`,
];

const disabled = () => process.env.BUILD_CACHE === 'off';

/**
 * On Netlify's build machines the cache is moved in and out (a rename per folder) rather than copied, file by
 * file, which at thousands of files took longer than a cold build. So the output is saved after the deploy
 * (onSuccess), when nothing needs the publish folder any more, and a build that fails after the restore
 * leaves the cache empty: the next deploy is cold, never wrong. A local `netlify build` (IS_LOCAL) keeps its
 * folder and copies.
 */
const moves = (constants) => !constants.IS_LOCAL;

/** The sentence model's vectors, by the digest of their text (docs/semantic-search.md): kept apart from the output. */
const VECTOR_CACHE = path.resolve('node_modules/.cache/semantic-vectors');

export async function onPreBuild({ utils, constants }) {
  if (disabled()) return console.log('build cache: off (BUILD_CACHE=off); the build is cold');
  const publishDir = path.resolve(constants.PUBLISH_DIR);
  const move = moves(constants);
  if (await utils.cache.restore(VECTOR_CACHE, { move })) console.log('build cache: semantic vectors restored');
  const restored = await utils.cache.restore(cachedPaths(publishDir), { move });
  if (!restored) return console.log('build cache: empty; the build is cold');
  // The restore gave every file a new inode and time: the records are stamped anew for the restored folder.
  const launcher = path.resolve('generator/launch.mjs');
  execFileSync(process.execPath, [launcher, 'pipeline/cli.ts', 'adopt', '--out', publishDir], { stdio: 'inherit' });
}

export async function onSuccess({ utils, constants }) {
  if (disabled()) return;
  const publishDir = path.resolve(constants.PUBLISH_DIR);
  const move = moves(constants);
  // Saved whole, records with the output: a cache holding one without the other would be a cold build.
  if (await utils.cache.save(cachedPaths(publishDir), { move })) console.log('build cache: output and records saved');
  await utils.cache.save(VECTOR_CACHE, { move });
}
