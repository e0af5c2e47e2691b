/**
 * The digest of a content file as the nothing-changed check records it (build-fingerprint.ts). A build with
 * no record to compare with (a cold build) needs the digests only for the record it writes at its end: the
 * load takes them from its own reads of the Markdown and YAML files (load-file.ts `readText`), and the build's
 * helper thread reads and hashes the rest (images and other files) beside the build (build-site.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export const digestBytes = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

export const digestFile = (file: string) => digestBytes(readFileSync(file));

/** A cold build's content files (build-fingerprint.ts fingerprintCold): each file's path, and its name in the content folder. */
export interface ContentFiles {
  files: string[];
  names: string[];
}

/**
 * The digests of `files`, in order: the load's own (`read`, by name) where it read the file, the others from
 * `digestRest`, asked at once for those only (reading and hashing the 4,000 Markdown files of 4,000 articles
 * a second time cost the helper 0.1 s). Awaited, it rejects as `digestRest` does (a file gone since it was listed).
 */
export function coldDigests(
  { files, names }: ContentFiles,
  read: ReadonlyMap<string, string>,
  digestRest: (files: string[]) => Promise<string[]>,
): Promise<string[]> {
  const rest = digestRest(files.filter((_, at) => !read.has(names[at]!)));
  return rest.then((digests) => {
    let next = 0;
    return names.map((name) => read.get(name) ?? digests[next++]!);
  });
}
