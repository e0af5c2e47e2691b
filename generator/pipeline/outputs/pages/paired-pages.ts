/**
 * When each record's page is made: right after its envelope, in a build that names every output. Both print
 * the body's HTML and the shaped record, which are let go once both have them (render-bodies.ts,
 * shape-records.ts); made in two passes, every envelope and then every page, every body's HTML was held from
 * the one to the other, 2.6 KB an article at the top of the build's heap (52 MB at 20,000 articles, when the
 * last envelope was made). A steady build that names only what its edit reached makes its few pages after
 * the envelopes, as before (its envelopes include the first record's, which its pages need not). The files
 * are the same either way; the sitemap lists the pages in buildRecordPages' order.
 */
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { AfterEnvelope, OutputFile } from '../output-file.ts';
import { pagedCollections } from '../paged-collections.ts';
import { buildRecordPages, recordPageMaker } from './record-pages.ts';

export interface RecordPages {
  /** Given to buildApiFiles: each record's page after its envelope; undefined when the pages come after the envelopes. */
  afterEnvelope: AfterEnvelope | undefined;
  /** The pages not made after their envelopes; the paths of those that were go into `paths` first, in buildRecordPages' order. */
  rest(paths: string[]): Iterable<OutputFile>;
}

export function recordPages(catalogue: Catalogue): RecordPages {
  if (catalogue.track.reached()) return { afterEnvelope: undefined, rest: () => buildRecordPages(catalogue) };
  const paged = new Set(pagedCollections(catalogue));
  const made = new Map<string, string[]>();
  let page: ReturnType<typeof recordPageMaker> | undefined;
  return {
    afterEnvelope: (key, record) => {
      if (!paged.has(key)) return undefined;
      page ??= recordPageMaker(catalogue);
      const file = page(key, record);
      let paths = made.get(key);
      if (!paths) {
        paths = [];
        made.set(key, paths);
      }
      paths.push(file.path);
      return file;
    },
    rest(paths) {
      for (const key of paged) for (const path of made.get(key) ?? []) paths.push(path);
      return [];
    },
  };
}
