/**
 * One build in a fresh process, as `npm run build` runs it; prints its own wall time, CPU time and peak
 * memory as JSON. Usage: tsx bench/build-once.ts CONTENT OUT [--no-search] [--no-pages]
 */
import { buildSite } from '../generator/pipeline/build-site.ts';

const [contentDir, outDir, ...flags] = process.argv.slice(2);
const cpuBefore = process.cpuUsage();
const started = performance.now();
const result = await buildSite({
  contentDir: contentDir!,
  outDir: outDir!,
  // Without the semantic step unless asked: bench/semantic.ts times it (the model would take hours at 100,000).
  env: { SOURCE_DATE_EPOCH: '1795000000', SEMANTIC_SEARCH: process.env.SEMANTIC_SEARCH ?? 'off' },
  searchIndex: !flags.includes('--no-search'),
  recordPages: !flags.includes('--no-pages'),
  // As npm run build does.
  helperThread: true,
});
const cpu = process.cpuUsage(cpuBefore);
console.log(
  JSON.stringify({
    buildMs: performance.now() - started,
    // From process start: includes Node and TypeScript loading, as a person running the build sees it.
    processMs: performance.now(),
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    files: result.files,
    mb: result.bytes / 1024 / 1024,
  }),
);
