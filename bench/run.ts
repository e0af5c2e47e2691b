/**
 * `npm run bench`: every benchmark in one run, printing figures (not pass/fail). Run on an otherwise idle
 * machine; each section states its goals beside its figures.
 */
import { benchBuild } from './build.ts';
import { benchBuildScale } from './build-scale.ts';
import { benchEditing } from './editing.ts';
import { benchEditorsAtScale } from './editors-at-scale.ts';
import { benchHandler } from './handler.ts';
import { benchLimiter } from './limiter.ts';
import { benchSearch } from './search.ts';
import { benchSemantic } from './semantic.ts';

// The build benchmarks time the site without the semantic step (the model would take hours at 100,000
// articles); the semantic benchmark, last, times it on its own.
process.env.SEMANTIC_SEARCH ??= 'off';
console.log(`# Benchmarks (Node ${process.version}, ${(await import('node:os')).cpus().length} cores)`);
await benchBuild();
await benchBuildScale();
await benchEditing();
await benchEditorsAtScale();
await benchHandler();
await benchLimiter();
await benchSearch();
await benchSemantic();
