/**
 * The API reference's examples after an edit: the carried files they print are read from the previous output
 * (carried-files.ts readIntact) when their bytes there have the digest they are carried with, and made
 * again otherwise (openapi-examples.ts).
 */
import { hash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readIntact } from '../../generator/pipeline/carried-files.ts';
import { createExampleCollector } from '../../generator/pipeline/outputs/openapi/openapi-examples.ts';
import { operations } from '../../generator/schemas/collections.ts';
import { MANIFEST_PATH } from '../../generator/shared/data-paths.ts';
import { scratchDir } from '../helpers/scratch.ts';

const dir = scratchDir('carried-examples');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MANIFEST = '{"success":true,"data":{"collections":[]}}';
const digestOf = (text: string) => hash('sha1', text, 'base64');
/** A carried file's text from `dir` as the build reads it for the examples (build-site.ts `readCarried`). */
const carriedText = (file: { path: string; carried: string }) => readIntact(dir, file.path, file.carried)?.toString('utf8');

describe('the examples of carried files', () => {
  mkdirSync(path.join(dir, path.dirname(MANIFEST_PATH)), { recursive: true });

  it('reads a carried file from the previous output only when its bytes there have its digest', () => {
    writeFileSync(path.join(dir, MANIFEST_PATH), MANIFEST);
    expect(carriedText({ path: MANIFEST_PATH, carried: digestOf(MANIFEST) })).toBe(MANIFEST);
    writeFileSync(path.join(dir, MANIFEST_PATH), `${MANIFEST} `);
    expect(carriedText({ path: MANIFEST_PATH, carried: digestOf(MANIFEST) })).toBeUndefined();
    expect(carriedText({ path: 'no/such/file.json', carried: digestOf(MANIFEST) })).toBeUndefined();
  });

  it('makes a carried file again only when it cannot be read so', () => {
    writeFileSync(path.join(dir, MANIFEST_PATH), MANIFEST);
    let made = 0;
    const file = {
      path: MANIFEST_PATH,
      carried: digestOf(MANIFEST),
      make: () => {
        made++;
        return MANIFEST;
      },
    };
    createExampleCollector(operations, carriedText).offer(file);
    expect(made).toBe(0);
    writeFileSync(path.join(dir, MANIFEST_PATH), '{}');
    createExampleCollector(operations, carriedText).offer(file);
    createExampleCollector(operations).offer(file);
    expect(made).toBe(2);
  });
});
