/**
 * The build cache keeps what the latest build used, and lets go of what it did not once that is more than
 * a few values: an edit leaves its old text's values behind without every value being walked again.
 */
import { describe, expect, it } from 'vitest';
import { createBuildCache } from '../../generator/pipeline/build-cache.ts';

const keys = Array.from({ length: 80 }, (_, at) => `text ${at}`);

describe('the build cache', () => {
  it('serves a value a build left unused while few are, and makes values again once many were left', () => {
    const cache = createBuildCache();
    let made = 0;
    const value = (key: string) => cache.memo('table', key, () => `${key} ${++made}`);
    for (const key of keys) value(key);
    cache.endBuild();
    // An edit: one text is no longer used, one new text is.
    for (const key of keys.slice(1)) value(key);
    value('edited');
    cache.endBuild();
    expect(made).toBe(81);
    expect(value(keys[0]!)).toBe('text 0 1');
    for (const key of keys.slice(1)) cache.keep('table', key);
    cache.endBuild();
    // A build that used a few values: the many it left are let go, and made again when asked for.
    expect(value('text 1')).toBe('text 1 2');
    cache.keep('table', 'text 2');
    cache.endBuild();
    expect(value('text 1')).toBe('text 1 2');
    expect(value('text 2')).toBe('text 2 3');
    expect(value('text 3')).toBe('text 3 82');
    expect(value('edited')).toBe('edited 83');
  });

  it('keeps a table a build did not use at all as it was', () => {
    const cache = createBuildCache();
    cache.memo('index', 'kept', () => 'state');
    cache.endBuild();
    cache.memo('other', 'x', () => 'x');
    cache.endBuild();
    expect(cache.memo('index', 'kept', () => 'made again')).toBe('state');
  });
});
