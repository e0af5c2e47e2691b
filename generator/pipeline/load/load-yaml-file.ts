/** A YAML content file's records (a list's items, or a document), parsed or taken from the load store. */
import { type ContentSource, keptText, type RawRecord, readChecked, syntaxProblem } from './load-file.ts';
import type { StoredFile } from './load-store.ts';
import { createLazyLocate, type FieldPath, type Locate, parseYaml } from './parse-yaml.ts';

/** A list's records or a document, from the file or, unchanged, from `stored`; a problem for a file that is not what its kind needs. */
export function loadYamlFile(
  source: ContentSource,
  file: string,
  kind: 'list' | 'document',
  optional = false,
  stored?: StoredFile,
): RawRecord[] {
  const { problems } = source;
  let parsed: { data: unknown; locate: Locate };
  if (stored) {
    // Kept unchanged by the load store: parsed by an earlier build, its lines found only if a problem asks.
    source.digests.set(file, stored.digest);
    let locate: Locate | undefined;
    const locateKept: Locate = (fieldPath) => {
      locate ??= createLazyLocate(stored.text ?? keptText(source, file, stored.digest));
      return locate(fieldPath);
    };
    parsed = { data: stored.data, locate: locateKept };
  } else {
    const text = readChecked(source, file);
    if (text === null || (text === undefined && optional)) return [];
    if (text === undefined) {
      problems.push({ file, line: 1, field: '-', message: `the file is missing (every content folder needs ${file})` });
      return [];
    }
    try {
      parsed = parseYaml(text);
    } catch (error) {
      problems.push(syntaxProblem(file, error, 'YAML'));
      return [];
    }
    source.keep = { text, digest: source.digests.get(file)!, data: parsed.data };
  }
  if (kind === 'document') return [{ file, data: parsed.data, locate: parsed.locate }];
  if (!Array.isArray(parsed.data)) {
    problems.push({ file, line: 1, field: '-', message: 'must be a YAML list of records (lines starting with "- id: ...")' });
    return [];
  }
  return parsed.data.map((data, index) => ({
    file,
    data,
    locate: (fieldPath: FieldPath) => parsed.locate([index, ...fieldPath]),
  }));
}
