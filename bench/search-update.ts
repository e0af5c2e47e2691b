/**
 * The search index updated by term after a one-record edit, beside the index written whole, at 4,000 and
 * 100,000 synthetic articles (the search bench's documents): a title edit and a body edit, each with the
 * time of the update, the parts it wrote and whether the result equals a clean write of the same documents
 * byte for byte. Each size runs in a fresh Node process. Run alone with `npx tsx bench/search-update.ts
 * [docs...]`.
 */
import { pathToFileURL } from 'node:url';
import type { SearchDocument } from '../generator/search/index-format.ts';
import { updateSearchIndex } from '../generator/search/index-update.ts';
import { writeSearchIndexState } from '../generator/search/index-writer.ts';
import { createDocuments } from '../test/helpers/synthetic-articles.ts';
import { figuresFromChild } from './child-figures.ts';

interface Edit {
  edit: string;
  wallMs: number;
  cpuMs: number;
  written: number;
  writtenKb: number;
  whole: string | false;
  equal: boolean;
}

interface Figures {
  docs: number;
  parts: number;
  wholeWallMs: number;
  wholeCpuMs: number;
  edits: Edit[];
}

/** Wall and CPU (user + system) milliseconds of `run`. */
function timed<T>(run: () => T): { value: T; wallMs: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = run();
  const used = process.cpuUsage(cpu);
  return { value, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

const sameBody = (a: string | Uint8Array | undefined, b: string | Uint8Array | undefined) =>
  typeof a === 'string' || typeof b === 'string' ? a === b : !!a && !!b && Buffer.compare(a, b) === 0;

/** The child's side: the whole write, then each edit updated and compared with a clean write. */
function measureInChild(docs: number): Figures {
  let documents = createDocuments(docs);
  const whole = timed(() => writeSearchIndexState(documents));
  let state = whole.value;
  const target = Math.floor(docs / 2);
  const edits: [string, (document: SearchDocument) => SearchDocument][] = [
    [
      'title',
      (document) => ({
        ...document,
        title: `Quarterly ${document.title} revisited`,
        stored: [document.stored[0], `Quarterly ${document.title} revisited`, document.stored[2], document.stored[3]],
      }),
    ],
    [
      'body',
      (document) => ({ ...document, body: `${document.body} A closing paragraph on reconciliation, pricing and the zebrafinch rollout.` }),
    ],
  ];
  const figures: Edit[] = [];
  for (const [edit, change] of edits) {
    documents = documents.map((document, i) => (i === target ? change(document) : document));
    const update = timed(() => updateSearchIndex(state, documents));
    state = update.value.state;
    const clean = writeSearchIndexState(documents).files;
    const equal = clean.size === state.files.size && [...clean].every(([path, body]) => sameBody(body, state.files.get(path)));
    const writtenKb =
      update.value.written.reduce((sum, { body }) => sum + (typeof body === 'string' ? body.length : body.length), 0) / 1024;
    figures.push({
      edit,
      wallMs: update.wallMs,
      cpuMs: update.cpuMs,
      written: update.value.written.length,
      writtenKb,
      whole: update.value.whole,
      equal,
    });
  }
  return { docs, parts: state.files.size, wholeWallMs: whole.wallMs, wholeCpuMs: whole.cpuMs, edits: figures };
}

const ms = (value: number) => (value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value.toFixed(value < 100 ? 1 : 0)} ms`);

export function benchSearchUpdate(sizes: number[] = [4_000, 100_000]): Figures[] {
  console.log('\n## Search index updated by term after a one-record edit\n');
  console.log(
    '| documents | parts | whole index: wall (CPU) | edit | update: wall (CPU) | parts written (KB) | ratio to whole (CPU) | equals a clean write |',
  );
  console.log('|---:|---:|---:|---|---:|---:|---:|---|');
  const rows = sizes.map((docs) => figuresFromChild<Figures>(import.meta.url, [String(docs)]));
  for (const row of rows) {
    for (const edit of row.edits) {
      const how = edit.whole ? ` (whole: ${edit.whole})` : '';
      console.log(
        `| ${row.docs.toLocaleString('en')} | ${row.parts.toLocaleString('en')} | ${ms(row.wholeWallMs)} (${ms(row.wholeCpuMs)}) | ${edit.edit}${how} | ` +
          `${ms(edit.wallMs)} (${ms(edit.cpuMs)}) | ${edit.written} (${Math.round(edit.writtenKb).toLocaleString('en')}) | ` +
          `${(edit.cpuMs / row.wholeCpuMs).toFixed(4)} | ${edit.equal ? 'yes' : 'NO'} |`,
      );
    }
  }
  return rows;
}

if (process.argv[2] === '--build') {
  console.log(JSON.stringify(measureInChild(Number(process.argv[3]))));
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  benchSearchUpdate(sizes.length ? sizes : undefined);
}
