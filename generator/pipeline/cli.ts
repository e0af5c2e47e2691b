/**
 * `check` validates the content folder; `build` validates it and writes the site.
 * Usage: tsx generator/pipeline/cli.ts check|build [--content DIR] [--out DIR]
 */
import { parseArgs } from 'node:util';
import { collections } from '../schemas/collections.ts';
import type { CollectionKey } from '../schemas/content.ts';
import { ContentError, formatReport } from './problems.ts';
import { loadContent } from './load/load-content.ts';
import { validateContent } from './validate/validate-content.ts';
import { buildSite } from './build-site.ts';

function summarize(content: Record<string, unknown>): string {
  return (Object.keys(collections) as CollectionKey[])
    .filter((key) => key !== 'site')
    .map((key) => `${(content[key] as unknown[]).length} ${collections[key].name}`)
    .join(', ');
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { content: { type: 'string', default: 'content' }, out: { type: 'string', default: 'dist' } },
  });
  const [command] = positionals;
  if (command !== 'check' && command !== 'build') {
    console.error('usage: cli.ts check|build [--content DIR] [--out DIR]');
    return 2;
  }
  try {
    if (command === 'check') {
      const content = validateContent(await loadContent(values.content));
      console.log(`${values.content}: ok: ${summarize(content)}`);
      return 0;
    }
    const started = performance.now();
    const result = await buildSite({ contentDir: values.content, outDir: values.out });
    console.log(
      `${values.content} -> ${values.out}: ${result.files} files, ${(result.bytes / 1024 / 1024).toFixed(1)} MiB in ${Math.round(performance.now() - started)} ms (${summarize(result.content)})`,
    );
    return 0;
  } catch (error) {
    if (error instanceof ContentError) {
      console.error(formatReport(error.problems, values.content));
      return 1;
    }
    // An editor needs the reason, not a stack trace; BUILD_DEBUG=1 shows the trace for developers.
    console.error(`${command} failed: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.BUILD_DEBUG) console.error(error);
    return 2;
  }
}

process.exitCode = await main();
