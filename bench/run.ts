/**
 * `npm run bench`: every benchmark in one run, printing figures (not pass/fail). Run on an otherwise idle
 * machine; each section states its goals beside its figures.
 */
import './without-vectors.ts';
import { benchBuild } from './build.ts';
import { benchBuildScale } from './build-scale.ts';
import { benchEditing } from './editing.ts';
import { benchEditorsAtScale } from './editors-at-scale.ts';
import { benchHandler } from './handler.ts';
import { benchLimiter } from './limiter.ts';
import { benchNetlifyDeploy } from './netlify-deploy.ts';
import { benchSearch } from './search.ts';
import { benchSearchPeer } from './search-peer.ts';
import { benchSearchUpdate } from './search-update.ts';
import { benchSemantic } from './semantic.ts';

console.log(`# Benchmarks (Node ${process.version}, ${(await import('node:os')).cpus().length} cores)`);
await benchBuild();
await benchBuildScale();
await benchNetlifyDeploy();
await benchEditing();
await benchEditorsAtScale();
await benchHandler();
await benchLimiter();
await benchSearch();
// Beside Pagefind at 0 and 10,000 distractors; 100,000 is `npx tsx bench/search-peer.ts 100000`.
await benchSearchPeer();
benchSearchUpdate();
await benchSemantic();
