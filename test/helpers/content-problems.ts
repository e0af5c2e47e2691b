/** What `npm run check` reports for a content folder, for tests that assert on problems. */
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import type { ContentLimits } from '../../generator/pipeline/load/content-limits.ts';
import { ContentError, type Problem } from '../../generator/pipeline/problems.ts';
import { validateContent } from '../../generator/pipeline/validate/validate-content.ts';
import { collections } from '../../generator/schemas/collections.ts';

/** The problems loading and validating `contentDir` finds (with the given limits), or [] when it is accepted. */
export async function problemsOf(contentDir: string, limits?: ContentLimits): Promise<Problem[]> {
  try {
    validateContent(await loadContent(contentDir, { collections, limits }));
    return [];
  } catch (error) {
    if (error instanceof ContentError) return error.problems;
    throw error;
  }
}

/** The problems of a folder that must be refused; fails the test when it is accepted. */
export async function refusedProblemsOf(contentDir: string, what: string): Promise<Problem[]> {
  const problems = await problemsOf(contentDir);
  if (problems.length === 0) throw new Error(`${what} was accepted`);
  return problems;
}
