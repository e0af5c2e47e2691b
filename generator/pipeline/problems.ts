/** A problem in the content, reported to an editor as `file:line: field: what is wrong (what is allowed)`. */
import { compareText } from '../shared/compare-text.ts';

export interface Problem {
  /** Path relative to the content folder, with `/`. */
  file: string;
  /** 1-based line where the field stands, or where the record starts when the field is missing. */
  line: number;
  /** Dotted path of the field, or `-` for the file as a whole. */
  field: string;
  message: string;
}

export function formatProblem(problem: Problem): string {
  return `${problem.file}:${problem.line}: ${problem.field}: ${problem.message}`;
}

/** Sorts problems by file, then line, so a report reads top to bottom like the files do. */
export function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort((a, b) => compareText(a.file, b.file) || a.line - b.line || compareText(a.field, b.field));
}

/** Every problem grouped under its file, then a count: the whole report an editor needs, no stack traces. */
export function formatReport(problems: Problem[], root: string): string {
  const sorted = sortProblems(problems);
  const lines: string[] = [];
  let current = '';
  for (const problem of sorted) {
    if (problem.file !== current) {
      if (current) lines.push('');
      current = problem.file;
      lines.push(`${root.replace(/\/+$/, '')}/${problem.file}`);
    }
    lines.push(`  ${formatProblem(problem)}`);
  }
  const files = new Set(sorted.map((p) => p.file)).size;
  lines.push('', `${sorted.length} problem${sorted.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}; nothing was built.`);
  return lines.join('\n');
}

/** Thrown when the content has problems; carries all of them. */
export class ContentError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    super(`${problems.length} content problem${problems.length === 1 ? '' : 's'}`);
    this.name = 'ContentError';
    this.problems = sortProblems(problems);
  }
}
