/**
 * The build cache keeps what builds use, and lets go of what no build used for a while once a table has grown
 * by more than an eighth: an edit leaves its old text's values behind without every value being walked again,
 * and the values of content still there (a carried page's body) stay kept without being asked for each build.
 */
import { describe, expect, it } from 'vitest';
import { createBuildCache } from '../../generator/pipeline/build-cache.ts';

const keys = Array.from({ length: 800 }, (_, at) => `text ${at}`);

describe('the build cache', () => {
  it('serves values builds left unused until the table has grown, then lets go of them but the live ones', () => {
    const cache = createBuildCache();
    let made = 0;
    const value = (key: string) => cache.memo('table', key, () => `${key} ${++made}`);
    for (const key of keys) value(key);
    cache.endBuild();
    // Edits: each a new text, none of the others used; a hundred are fewer than an eighth and a few more.
    for (let edit = 0; edit < 100; edit++) {
      value(`edited ${edit}`);
      cache.live('table', () => keys.slice(0, 10));
      cache.endBuild();
    }
    expect(made).toBe(900);
    expect(value('text 500')).toBe('text 500 501');
    cache.endBuild();
    // The table has grown past its share: what no build used since the last sweep goes, the live keys stay.
    for (let edit = 100; edit < 200; edit++) value(`edited ${edit}`);
    cache.live('table', () => keys.slice(0, 10));
    cache.endBuild();
    expect(value('text 1')).toBe('text 1 2');
    expect(value('text 500')).toBe('text 500 501');
    expect(value('edited 150')).toBe('edited 150 951');
    expect(value('text 20')).toBe('text 20 1001');
    // Used since the sweep before: kept until the next.
    expect(value('edited 0')).toBe('edited 0 801');
  });
});
