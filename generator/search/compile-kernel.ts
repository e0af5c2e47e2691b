/**
 * Compiles the scoring kernel (scoring.wat) into scoring-kernel.ts, the module the edge imports, so that
 * no WebAssembly tool is needed to build or run the site. `npm run build:kernel` after editing the .wat;
 * test/search/scoring-kernel.test.ts fails when the two disagree. Usage: tsx compile-kernel.ts [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import wabt from 'wabt';

const WAT = fileURLToPath(new URL('./scoring.wat', import.meta.url));
const MODULE = fileURLToPath(new URL('./scoring-kernel.ts', import.meta.url));

/** The text of scoring-kernel.ts for the current scoring.wat. */
export async function compileKernel(): Promise<string> {
  const tools = await wabt();
  const parsed = tools.parseWat('scoring.wat', readFileSync(WAT, 'utf8'));
  parsed.validate();
  const { buffer } = parsed.toBinary({});
  parsed.destroy();
  const base64 = Buffer.from(buffer).toString('base64');
  const lines = base64.match(/.{1,100}/g)!.map((line) => `  '${line}',`);
  return [
    '/** The scoring kernel, compiled from scoring.wat by `npm run build:kernel` (compile-kernel.ts); do not edit. */',
    'export const SCORING_KERNEL_BASE64 = [',
    ...lines,
    "].join('');",
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = await compileKernel();
  if (process.argv[2] === '--check') {
    if (readFileSync(MODULE, 'utf8') !== text) throw new Error('scoring-kernel.ts is out of date: npm run build:kernel');
  } else writeFileSync(MODULE, text);
}
