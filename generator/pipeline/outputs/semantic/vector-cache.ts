/**
 * Vectors kept between builds, keyed by the digest of the text they were made from: a build embeds only
 * text it has not seen. One file per model, way of running it, quantization and form of record text (cacheForm: a
 * change to any starts a new file, and the old one is removed) under node_modules/.cache (Netlify's build cache keeps it between
 * deploys: netlify/plugins/build-cache). A cache that does not read back whole is ignored, never trusted; two
 * builds saving at once each rename a whole file into place, so the last one wins and neither is torn.
 * Build side: Node only.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QUANTIZATION, type QuantizedVector } from '../../../semantic/vector-part.ts';
import { isLeftPartial, writeWhole } from '../../whole-file.ts';
import { RECORD_TEXT_FORM } from './record-text.ts';
import { EMBEDDING_FORM } from './sentence-model.ts';

/** Where the caches live (safe to delete: the next build embeds everything again). */
export const VECTOR_CACHE_DIR = fileURLToPath(new URL('../../../../node_modules/.cache/semantic-vectors/', import.meta.url));
/** Entries a cache file keeps at most: this build's, then the most recent others. */
const MAX_ENTRIES = 400_000;
const MAGIC = 0x31435653; // "SVC1"
const DIGEST_BYTES = 16;

export interface VectorCache {
  get(text: string): QuantizedVector | undefined;
  set(text: string, vector: QuantizedVector): void;
  /** Writes what this build used first, then older entries, up to MAX_ENTRIES. */
  save(): void;
}

const digestOf = (text: string) =>
  createHash('sha256')
    .update(text)
    .digest('hex')
    .slice(0, DIGEST_BYTES * 2);

function readEntries(file: string, dimensions: number): Map<string, QuantizedVector> {
  const entries = new Map<string, QuantizedVector>();
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return entries;
  }
  const size = DIGEST_BYTES + 4 + dimensions;
  if (bytes.length < 8 || bytes.readUInt32LE(0) !== MAGIC || bytes.readUInt32LE(4) !== dimensions || (bytes.length - 8) % size !== 0)
    return entries;
  for (let at = 8; at < bytes.length; at += size) {
    const digest = bytes.subarray(at, at + DIGEST_BYTES).toString('hex');
    const scale = bytes.readFloatLE(at + DIGEST_BYTES);
    const codes = new Int8Array(bytes.buffer.slice(bytes.byteOffset + at + DIGEST_BYTES + 4, bytes.byteOffset + at + size));
    entries.set(digest, { codes, scale });
  }
  return entries;
}

/**
 * What a cached vector depends on besides its text and the model: how the model was run, how the vector was
 * quantized, what form the text has.
 */
export const cacheForm = () => `${EMBEDDING_FORM}.${QUANTIZATION}.${RECORD_TEXT_FORM}`;

/** Caches of `model` in `dir` written under another form, and partial files of killed builds: never read again. */
function removeOtherForms(dir: string, model: string, keep: string) {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names)
    if ((name.startsWith(`${model}.`) && name.endsWith('.bin') && name !== keep) || isLeftPartial(name))
      rmSync(path.join(dir, name), { force: true });
}

/** The cache of `model`'s vectors of `form` in `dir`; `dir` null keeps them in memory only. */
export function openVectorCache(model: string, dimensions: number, dir: string | null = VECTOR_CACHE_DIR, form = cacheForm()): VectorCache {
  const name = `${model}.${form}.bin`;
  const file = dir === null ? null : path.join(dir, name);
  const before = file ? readEntries(file, dimensions) : new Map<string, QuantizedVector>();
  const used = new Map<string, QuantizedVector>();
  return {
    get(text) {
      const digest = digestOf(text);
      const vector = used.get(digest) ?? before.get(digest);
      if (vector) used.set(digest, vector);
      return vector;
    },
    set(text, vector) {
      used.set(digestOf(text), vector);
    },
    save() {
      if (!file) return;
      const entries = [...used];
      for (const entry of before) if (entries.length < MAX_ENTRIES && !used.has(entry[0])) entries.push(entry);
      const size = DIGEST_BYTES + 4 + dimensions;
      const bytes = Buffer.alloc(8 + entries.length * size);
      bytes.writeUInt32LE(MAGIC, 0);
      bytes.writeUInt32LE(dimensions, 4);
      entries.forEach(([digest, { codes, scale }], i) => {
        const at = 8 + i * size;
        bytes.write(digest, at, 'hex');
        bytes.writeFloatLE(scale, at + DIGEST_BYTES);
        bytes.set(new Uint8Array(codes.buffer, codes.byteOffset, dimensions), at + DIGEST_BYTES + 4);
      });
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        writeWhole(file, bytes);
        removeOtherForms(path.dirname(file), model, name);
      } catch {
        // A read-only cache folder: the next build embeds again.
      }
    },
  };
}
