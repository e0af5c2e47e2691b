/**
 * Random edits of a content folder's articles, for the suites that compare builds after edits with a clean
 * build: a title, a date, a body, an article added, renamed or removed.
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';

export type Edit =
  | { kind: 'retitle'; index: number; words: string }
  | { kind: 'redate'; index: number; day: number }
  | { kind: 'body'; index: number; words: string }
  | { kind: 'add'; words: string }
  | { kind: 'rename'; index: number }
  | { kind: 'delete'; index: number };

const word = fc.constantFrom('agent', 'checkout', 'catalogue', 'payment', 'signal', 'review', 'latency', 'retail');
const words = fc.array(word, { minLength: 1, maxLength: 6 }).map((list) => list.join(' '));
export const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('retitle' as const), index: fc.nat(), words }),
  fc.record({ kind: fc.constant('redate' as const), index: fc.nat(), day: fc.integer({ min: 1, max: 28 }) }),
  fc.record({ kind: fc.constant('body' as const), index: fc.nat(), words }),
  fc.record({ kind: fc.constant('add' as const), words }),
  fc.record({ kind: fc.constant('rename' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), index: fc.nat() }),
);

let added = 0;

/**
 * Applies an edit to the articles of a content folder (they reference nothing that others need); the paths
 * it changed, as npm run dev's watcher reports them.
 */
export function apply(content: string, change: Edit): string[] {
  const dir = path.join(content, 'intelligence');
  const articles = readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort();
  const pick = (index: number) => path.join(dir, articles[index % articles.length]!);
  const reported = (...files: string[]) => files.map((file) => path.relative(content, file).split(path.sep).join('/'));
  switch (change.kind) {
    case 'retitle': {
      const file = pick(change.index);
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^title: .*$/m, `title: ${change.words}`));
      return reported(file);
    }
    case 'redate': {
      // Moves the article in its collection's order (newest first), and may change the content's newest date.
      const file = pick(change.index);
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^date: .*$/m, `date: 2026-03-${String(change.day).padStart(2, '0')}`));
      return reported(file);
    }
    case 'body': {
      const file = pick(change.index);
      writeFileSync(file, `${readFileSync(file, 'utf8')}\n${change.words}.\n`);
      return reported(file);
    }
    case 'add': {
      const file = path.join(dir, `added-${++added}.md`);
      writeFileSync(
        file,
        `---\ntitle: ${change.words}\nsummary: Added.\ndate: 2026-0${1 + (added % 9)}-15\nauthor: Someone\ntopics: [agentic-commerce]\n---\n${change.words}.\n`,
      );
      return reported(file);
    }
    case 'rename': {
      const file = pick(change.index);
      const to = path.join(dir, `renamed-${++added}.md`);
      renameSync(file, to);
      return reported(file, to);
    }
    case 'delete': {
      // Keep two articles at least, so the lists stay worth comparing.
      if (articles.length <= 2) return [];
      const file = pick(change.index);
      rmSync(file);
      return reported(file);
    }
  }
}
