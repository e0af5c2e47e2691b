/** The index's parts one by one: postings records, dictionary and typo look-ups, the isolate's cache, failures. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import { createHandler } from '../../generator/edge/handler.ts';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { lookupPrefix, lookupTerm } from '../../generator/search/dictionary.ts';
import { entryAt, postingsPath, SEARCH_META_PATH, type SearchDocument, type SearchMeta } from '../../generator/search/index-format.ts';
import { createIndexParts } from '../../generator/search/index-reader.ts';
import { writeSearchIndex } from '../../generator/search/index-writer.ts';
import { BLOCK_REACH, SHARD_BYTES } from '../../generator/search/part-cutting.ts';
import { BOUND_LEVELS, blockScore } from '../../generator/search/postings-codec.ts';
import { RANKING, TYPO_FIELDS } from '../../generator/search/ranking.ts';
import { RecordBuilder } from '../../generator/search/record-builder.ts';
import { blockTable, parseRecord, readBlock } from '../../generator/search/record-reader.ts';
import { planQuery } from '../../generator/search/query-plan.ts';
import { createSearch } from '../../generator/search/search.ts';
import { findTypos, readTypoFile, typoFileTerms } from '../../generator/search/typo-dictionary.ts';
import { readDistFiles } from '../helpers/api-runtimes.ts';
import { buildInto, removeBuildDirs } from '../helpers/build-output.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { createReferenceSearch } from '../helpers/reference-search.ts';
import { countReads, loadSearchDocuments, syntheticSearchDocuments } from '../helpers/search-documents.ts';
import { createRandom } from '../helpers/synthetic-content.ts';

/** A record of `postings` (per document ascending: `[document, [fieldId, tf, length]...]`) for an index of `documents`. */
function recordOf(postings: [number, ...[number, number, number][]][], documents: number) {
  const builder = new RecordBuilder();
  for (const [document, ...fields] of postings) for (const [fieldId, tf, length] of fields) builder.add(fieldId, document, tf, length);
  const context = { documents, averageFieldLength: [3, 2, 2, 20, 300] };
  const bytes = builder.encode(context);
  return { bytes, record: parseRecord(bytes, 0, bytes.length, context), context };
}

describe('postings records', () => {
  it('keep a rare term whole, with its postings as they were added', () => {
    const { record } = recordOf(
      [
        [3, [0, 1, 4], [4, 7, 210]],
        [900, [4, 1, 12]],
      ],
      1000,
    );
    expect(record.table).toBeUndefined();
    expect(Array.from(record.postings!.docs)).toEqual([3, 900]);
    expect(Array.from(record.postings!.masks)).toEqual([0b10001, 0b10000]);
    expect(Array.from(record.postings!.tf.subarray(0, 5))).toEqual([1, 0, 0, 0, 7]);
    expect(record.weights[1]).toBe(0);
    expect(record.weights[0]).toBeGreaterThan(record.weights[4]!);
  });

  it('cut a common term into blocks, each with a bound no document in it exceeds, and a bitset when dense', () => {
    const random = createRandom(4);
    const postings: [number, ...[number, number, number][]][] = [];
    for (let document = 0; document < 1000; document++) {
      if (random() < 0.3)
        postings.push([
          document,
          [0, 1 + Math.floor(random() * 3), 1 + Math.floor(random() * 9)],
          [4, 1 + Math.floor(random() * 20), 50 + Math.floor(random() * 500)],
        ]);
    }
    const { record, context } = recordOf(postings, 1000);
    const table = blockTable(record);
    expect(table.block.length).toBe(new Set(postings.map(([document]) => Math.floor(document / RANKING.blockSize))).size);
    const decoded = Array.from(table.block, (_, i) => readBlock(record, i));
    const top = Math.max(...table.bound);
    expect(decoded.flatMap(({ docs }) => Array.from(docs))).toEqual(postings.map(([document]) => document));
    decoded.forEach((block, i) => {
      const best = Math.max(
        ...Array.from(block.docs, (_, j) =>
          blockScore(record.weights, context.averageFieldLength, block.masks[j]!, block.tf, block.lengths, j * 5),
        ),
      );
      // Quantized to one of BOUND_LEVELS steps of the record's best score, always up.
      expect(table.bound[i]).toBeGreaterThanOrEqual(best);
      expect(table.bound[i]! - best).toBeLessThanOrEqual(top / BOUND_LEVELS);
    });
    const dense = record.dense!;
    expect(postings.every(([document]) => (dense[document >> 3]! >> (document & 7)) & 1)).toBe(true);
    expect(dense.reduce((sum, byte) => sum + byte.toString(2).replaceAll('0', '').length, 0)).toBe(postings.length);
  });

  it('refuse a record cut short or out of order', () => {
    const { bytes, context } = recordOf(
      [
        [3, [0, 1, 4]],
        [5, [1, 1, 1]],
      ],
      10,
    );
    // A common term's record (two documents of one block): its table is checked when it is decoded.
    expect(() => blockTable(parseRecord(bytes, 0, bytes.length - 1, context))).toThrow('truncated or corrupt');
    expect(() => parseRecord(bytes, 0, bytes.length + 1, context)).toThrow('truncated or corrupt');
    expect(() =>
      recordOf(
        [
          [5, [0, 1, 1]],
          [2, [0, 1, 1]],
        ],
        10,
      ),
    ).toThrow('ascend');
    const common = recordOf(
      Array.from({ length: 200 }, (_, i): [number, [number, number, number]] => [i * 3, [4, 1, 9]]),
      600,
    );
    const cut = common.bytes.slice(0, common.bytes.length - 3);
    expect(() => readBlock(parseRecord(cut, 0, cut.length, common.context), 9)).toThrow('truncated or corrupt');
  });
});

/**
 * Levenshtein distance with a swap of two adjacent characters as one edit (optimal string alignment), the
 * textbook table: the independent check of the typo look-up.
 */
function distance(a: string, b: string): number {
  const rows = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

describe('dictionary and typo look-ups', () => {
  let parts: ReturnType<typeof createIndexParts>;
  let meta: SearchMeta;
  let allTerms: string[];
  let typoTerms: Set<string>;
  let reads: string[];

  beforeAll(async () => {
    const real = await loadSearchDocuments('content');
    const files = writeSearchIndex([...real, ...syntheticSearchDocuments(real, 400, 5)]);
    const memory = createMemoryAssets(new Map(files.map(({ path, body }) => [path, body])));
    reads = [];
    parts = createIndexParts(countReads(memory, reads));
    meta = await parts.meta();
    allTerms = [];
    typoTerms = new Set();
    for (let block = 0; block < meta.blocks.length; block++) allTerms.push(...(await parts.block(block)).terms);
    // Which terms occur in the typo-tolerant fields, read from the records themselves.
    const typoFieldIds = new Set(TYPO_FIELDS.map((field) => meta.fields.indexOf(field)));
    for (const term of allTerms) {
      const entry = (await lookupTerm(parts, meta.blocks, term))!;
      const bytes = await parts.shard(entry.location[0]);
      const { weights } = parseRecord(bytes, entry.location[1], entry.location[2], meta);
      if ([...typoFieldIds].some((fieldId) => weights[fieldId]! > 0)) typoTerms.add(term);
    }
  }, 60_000);

  it('splits the dictionary into blocks that each hold a sorted run of terms', () => {
    expect(meta.blocks.length).toBeGreaterThan(2);
    expect(allTerms.length).toBeGreaterThan(4 * BLOCK_REACH);
    expect([...allTerms].sort()).toEqual(allTerms);
  });

  it('finds every term exactly, and nothing for a term it does not hold', async () => {
    for (const term of allTerms.filter((_, i) => i % 7 === 0)) expect((await lookupTerm(parts, meta.blocks, term))?.term).toBe(term);
    for (const missing of ['', '0000', 'aaaaaaa', 'zzzzzzzz', `${allTerms[2 * BLOCK_REACH]}q`]) {
      expect(await lookupTerm(parts, meta.blocks, missing)).toBeUndefined();
    }
  });

  it('finds by prefix exactly the longer terms that begin with it, across block boundaries', async () => {
    const boundary = meta.blocks[1]!;
    const prefixes = [
      'com',
      'pro',
      'mar',
      'zzz',
      boundary.slice(0, 3),
      boundary.slice(0, 2),
      ...allTerms.filter((_, i) => i % 97 === 0).map((t) => t.slice(0, 4)),
    ];
    for (const prefix of prefixes) {
      const expected = allTerms.filter((term) => term.startsWith(prefix) && term !== prefix);
      expect(
        (await lookupPrefix(parts, meta.blocks, prefix)).map(({ term }) => term),
        prefix,
      ).toEqual(expected);
    }
  });

  it('finds by typo exactly the terms of the short fields one edit away (a swap of neighbours included), first character included', async () => {
    const random = createRandom(3);
    const words = [...typoTerms].filter((term) => term.length >= 5);
    const mangled = words.slice(0, 150).flatMap((word) => {
      const at = Math.floor(random() * word.length);
      return [
        word,
        `x${word.slice(1)}`,
        word.slice(1),
        `e${word}`,
        word.slice(0, at) + word.slice(at + 1),
        `${word.slice(0, at)}q${word.slice(at)}`,
        // Two neighbouring letters swapped, the first two included.
        `${word[1]}${word[0]}${word.slice(2)}`,
        word.slice(0, at) + word.slice(at + 1, at + 2) + word.slice(at, at + 1) + word.slice(at + 2),
      ];
    });
    let found = 0;
    for (const word of mangled.filter((w) => w.length >= 5)) {
      const expected = [...typoTerms].filter((term) => distance(term, word) === 1).sort();
      const actual = (await findTypos(word, (key) => parts.typos(key))).map(({ term }) => term);
      expect(actual, word).toEqual(expected);
      found += actual.length;
    }
    expect(found).toBeGreaterThan(100);
  });

  it('refuses a typo file whose header or entries do not add up, rather than answer from it', async () => {
    const key = [
      ...new Set(allTerms.filter((term) => typoTerms.has(term) && term.length >= 6).map((term) => `${term.length}-${term.charCodeAt(0)}`)),
    ][0]!;
    const good = (await parts.typos(key))!.bytes;
    const word = allTerms.find((term) => typoTerms.has(term) && `${term.length}-${term.charCodeAt(0)}` === key)!;
    // The same file under every key the look-up reads, so that each of its scans (head and tail) meets it.
    const withFile = (bytes: Uint8Array) => findTypos(`${word}x`, async () => readTypoFile(bytes));
    expect((await withFile(good)).map(({ term }) => term)).toContain(word);
    // The header: more entries than its bytes can hold, a head longer than the file.
    expect(() => readTypoFile(new Uint8Array([200, 0, 10, 1, 2, 3]))).toThrow('not a typo file');
    expect(() => readTypoFile(new Uint8Array([1, 0, 90, 1, 2, 3]))).toThrow('not a typo file');
    expect(() => readTypoFile(new Uint8Array([0x80, 0x80]))).toThrow();
    // The entries: cut short, or a term's length running past its part.
    const cut = good.slice(0, good.length - 1);
    await expect(withFile(cut)).rejects.toThrow('not a typo file');
    const long = good.slice();
    long[readTypoFile(good).head[0]] = 0x7f;
    await expect(withFile(long)).rejects.toThrow('not a typo file');
    expect(() => typoFileTerms(cut)).toThrow();
  });

  it('reads only the few parts a look-up needs', async () => {
    reads.splice(0);
    const counting = createIndexParts({
      read: async (file) => {
        reads.push(file);
        return JSON.stringify(file === SEARCH_META_PATH ? meta : await parts.block(Number(file.match(/(\d+)\.json$/)![1])));
      },
      readBytes: async (file) => {
        reads.push(file);
        return (await parts.typos(file.match(/typos\/(.+)\.bin$/)![1]!))?.bytes ?? null;
      },
    });
    await lookupTerm(counting, meta.blocks, allTerms[100]!);
    await findTypos('commerse', (key) => counting.typos(key));
    expect(reads.filter((file) => file.includes('/terms/'))).toHaveLength(1);
    expect(reads.filter((file) => file.includes('/typos/')).length).toBeLessThanOrEqual(5);
  });
});

describe('the isolate cache', () => {
  it('never holds more than its bound, and reads an evicted part again', async () => {
    const documents: SearchDocument[] = Array.from({ length: 400 }, (_, i) => ({
      id: `intelligence:d${i}`,
      title: `title${i} shared`,
      tags: '',
      terms: '',
      summary: `summary ${i}`,
      body: Array.from({ length: 60 }, (_, j) => `word${(i * 7 + j) % 997}`).join(' '),
      stored: [`d${i}`, `title${i}`, '', `https://example.com/${i}/`],
    }));
    const files = writeSearchIndex(documents);
    const shards = files.flatMap(({ path }) => (path.includes('/postings/') ? [Number(path.match(/(\d+)\.bin$/)![1])] : []));
    expect(shards.length).toBeGreaterThan(3);
    const memory = createMemoryAssets(new Map(files.map(({ path, body }) => [path, body])));
    const reads: string[] = [];
    const bound = SHARD_BYTES * 2;
    const search = createSearch(countReads(memory, reads), { cacheBytes: bound });
    const parts = createIndexParts({ read: memory.read, readBytes: memory.readBytes }, bound);
    for (let i = 0; i < 200; i++) {
      await search.search({ q: `word${(i * 37) % 997} title${i}`, type: 'all', limit: 5, offset: 0 });
      await parts.shard(shards[i % 5]!);
      expect(parts.cachedBytes()).toBeLessThanOrEqual(bound);
    }
    // Some shard was read, let go and read again.
    const shardReads = reads.filter((file) => file.includes('/postings/'));
    expect(shardReads.length).toBeGreaterThan(new Set(shardReads).size);
  });

  it('counts the records it decoded against their shard, and keeps each result card by itself', async () => {
    const real = await loadSearchDocuments('content');
    const files = writeSearchIndex([...real, ...syntheticSearchDocuments(real, 400, 5)]);
    const bodies = new Map(files.map(({ path, body }) => [path, body]));
    const memory = createMemoryAssets(bodies);
    const sizeOf = (file: string) => {
      const body = bodies.get(file);
      return body === undefined ? 0 : typeof body === 'string' ? body.length * 2 : body.length;
    };
    // A charge counts against a shard the cache holds, and nothing else.
    const parts = createIndexParts(memory);
    const shards = files.flatMap(({ path }) => (path.includes('/postings/') ? [Number(path.match(/(\d+)\.bin$/)![1])] : []));
    await parts.shard(shards[0]!);
    parts.charge(shards[1]!, 1000);
    expect(parts.cachedBytes()).toBe(sizeOf(postingsPath(shards[0]!)));
    parts.charge(shards[0]!, 1000);
    expect(parts.cachedBytes()).toBe(sizeOf(postingsPath(shards[0]!)) + 1000);
    // A query's plan: the parts it read, and its records decoded on top.
    const reads: string[] = [];
    const planned = createIndexParts(countReads(memory, reads));
    const q = 'agentic checkout pricing';
    await planQuery(planned, await planned.meta(), q);
    const read = new Set(reads);
    expect(planned.cachedBytes()).toBeGreaterThan([...read].reduce((sum, file) => sum + sizeOf(file), 0));
    // The page's cards: each one asked for is kept, not its file; asked again, nothing is read.
    const search = createSearch(countReads(memory, reads));
    const query = { q, type: 'all', limit: 20, offset: 0 };
    reads.length = 0;
    await search.search(query);
    const cardFiles = new Set(reads.filter((file) => file.includes('/cards/')));
    const cardText = [...cardFiles].reduce((sum, file) => sum + sizeOf(file), 0);
    expect(cardFiles.size).toBeGreaterThan(5);
    const kept = search.cachedBytes() - planned.cachedBytes();
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(cardText / 2);
    reads.length = 0;
    expect(await search.search(query)).toEqual(await search.search(query));
    expect(reads).toEqual([]);
  });
});

describe('a query over many parts', () => {
  it('reads the shards of all its words in one go and ranks them as the brute force does', async () => {
    const real = await loadSearchDocuments('content');
    const documents = [...real, ...syntheticSearchDocuments(real, 1500, 9)];
    const files = writeSearchIndex(documents);
    const memory = createMemoryAssets(new Map(files.map(({ path, body }) => [path, body])));
    const reads: string[] = [];
    const search = createSearch(countReads(memory, reads, true));
    const query = { q: 'agentic checkout retention pricing measurement privacy search catalogue', type: 'all', limit: 30, offset: 0 };
    const answer = await search.rank(query);
    expect(new Set(reads).size).toBeGreaterThanOrEqual(5);
    const expected = createReferenceSearch(documents)(query);
    expect(answer.total).toBe(expected.total);
    expect(answer.items.map(({ id, score }) => [id, score])).toEqual(expected.items.map(({ id, score }) => [id, score]));
  }, 60_000);
});

describe('a block table found malformed when a search decodes it', () => {
  it('fails that search naming its part, and leaves the records kept before it right for the next', async () => {
    const real = await loadSearchDocuments('content');
    const files = new Map(writeSearchIndex([...real, ...syntheticSearchDocuments(real, 1500, 9)]).map(({ path, body }) => [path, body]));
    // Two common terms of two shards: a query keeps the first one's record, then decodes the second's table.
    const parts = createIndexParts(createMemoryAssets(files));
    const meta = await parts.meta();
    const common: { term: string; shard: number; table: number }[] = [];
    for (let b = 0; b < meta.blocks.length && common.length < 2; b++) {
      const block = await parts.block(b);
      for (const [i, term] of block.terms.entries()) {
        const [shard, offset, length] = entryAt(block, i).location;
        const record = parseRecord(await parts.shard(shard), offset, length, meta);
        if (record.table && common[0]?.shard !== shard) common.push({ term, shard, table: record.table.at });
        if (common.length === 2) break;
      }
    }
    const [kept, spoilt] = common as [(typeof common)[0], (typeof common)[0]];
    const path = postingsPath(spoilt.shard);
    const good = files.get(path) as Uint8Array;
    const bad = good.slice();
    // Its first entry's count (after a one-byte block gap) made 0.
    bad[spoilt.table + 1] = 0;
    const broken = new Map(files).set(path, bad);
    const search = createSearch(createMemoryAssets(broken));
    const query = { q: `${kept.term} ${spoilt.term}`, type: 'all', limit: 20, offset: 0 };
    await expect(search.search(query)).rejects.toThrow(`${path}: postings: record is truncated or corrupt`);
    broken.set(path, good);
    expect(await search.search(query)).toEqual(await createSearch(createMemoryAssets(files)).search(query));
  }, 60_000);
});

describe('a broken index part under the handler', () => {
  let files: Map<string, string | Uint8Array>;
  beforeAll(async () => {
    files = readDistFiles(await buildInto(VALID_FIXTURE));
  });
  afterAll(removeBuildDirs);

  /** A handler over a copy of the build's files that the test spoils and mends (`broken`), with what it logs. */
  function overBrokenFiles() {
    const broken = new Map(files);
    const logged: string[] = [];
    const handler = createHandler({
      assets: createMemoryAssets(broken),
      limiter: createMemoryLimiter({ limit: 1e6 }),
      logError: (error) => logged.push(String(error)),
    });
    const get = async (path: string) => {
      const response = await handler(new Request(`http://api.test${path}`), { ip: '::1' });
      return { status: response.status, text: await response.text() };
    };
    return { broken, logged, get };
  }

  it('answers 500 INTERNAL_ERROR, logs the part, keeps other routes working, and retries on the next request', async () => {
    const shard = [...files.keys()].find((file) => file.includes('/postings/'))!;
    const good = files.get(shard)!;
    const { broken, logged, get } = overBrokenFiles();
    broken.set(shard, new Uint8Array([0xff, 0xff, 0xff]));
    // Every word of the fixture's index is in the first shard, so any match reads it.
    const failed = await get('/v1/search?q=commerce');
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.text).error.code).toBe('INTERNAL_ERROR');
    expect(failed.text).not.toMatch(/postings|truncated|\.bin|at \S+ \(/);
    expect(logged.join('\n')).toMatch(/postings/);
    expect((await get('/v1/services/list')).status).toBe(200);
    broken.set(shard, good);
    expect((await get('/v1/search?q=commerce')).status).toBe(200);
  });

  it('answers 500 INTERNAL_ERROR for a typo file that is not one, and reads it again on the next request', async () => {
    const typos = [...files.keys()].filter((file) => file.includes('/typos/'));
    expect(typos.length).toBeGreaterThan(0);
    const { broken, logged, get } = overBrokenFiles();
    for (const body of [
      new Uint8Array([9, 9, 9]),
      new Uint8Array([2, 0, 14, 1, 0x41, 0, 1, 1, 1, 1, 1, 0x42, 0, 1, 1, 1, 0x80]),
      new Uint8Array(0),
    ]) {
      for (const file of typos) broken.set(file, body);
      expect((await get('/v1/search?q=commerse')).status).toBe(500);
    }
    expect(logged.join('\n')).toMatch(/typos\/.*\.bin: not a typo file/);
    for (const file of typos) broken.set(file, files.get(file)!);
    expect((await get('/v1/search?q=commerse')).status).toBe(200);
  });

  it('answers 500 INTERNAL_ERROR for result cards that are not cards, and reads them again on the next request', async () => {
    const cards = [...files.keys()].filter((file) => file.includes('/cards/'));
    const { broken, get } = overBrokenFiles();
    for (const body of ['[[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]]', '{"cards": []}', '[[']) {
      for (const file of cards) broken.set(file, body);
      expect((await get('/v1/search?q=commerce')).status).toBe(500);
    }
    for (const file of cards) broken.set(file, files.get(file)!);
    expect((await get('/v1/search?q=commerce')).status).toBe(200);
  });
});
