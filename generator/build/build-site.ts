/** The build, top to bottom: load -> validate -> build routes -> emit. Only the emit step writes. */
import type { Content } from '../schemas/registry.ts';
import { loadContent } from './load/load-content.ts';
import { validateContent } from './validate/validate-content.ts';

export interface BuildResult {
  content: Content;
  files: number;
  bytes: number;
}

export async function buildSite(options: { contentDir: string; outDir: string }): Promise<BuildResult> {
  const content = validateContent(await loadContent(options.contentDir));
  return { content, files: 0, bytes: 0 };
}
