/**
 * The build's helper thread after an edit (build-helper.ts helperWhenAsked): started by the first request for
 * its work, never by the build's pacing or its end, so a build that asks nothing of it starts no thread.
 */
import { describe, expect, it } from 'vitest';
import { type BuildHelper, helperWhenAsked } from '../../generator/pipeline/helper/build-helper.ts';

/** A helper that counts its starts and the calls it is given. */
function counted() {
  const calls: string[] = [];
  let starts = 0;
  const helper = helperWhenAsked(() => {
    starts++;
    return {
      digests: async (files) => files.map((file) => `digest of ${file}`),
      render: async (bodies) => bodies.map((body) => `<p>${body}</p>`),
      searchIndex: async () => [],
      searchIndexKeeping: async () => ({ files: [], kept: {} as never }),
      termUpdate: async () => undefined,
      readSearchParts: (outDir) => calls.push(`read ${outDir}`),
      pump: () => calls.push('pump'),
      close: async () => {
        calls.push('close');
      },
    } satisfies BuildHelper;
  });
  return { helper, calls, starts: () => starts };
}

describe('a helper started when asked', () => {
  it('starts no thread for a build that asks nothing of it', async () => {
    const { helper, calls, starts } = counted();
    helper.pump();
    // Reading the search index ahead is not worth a thread's start on its own.
    helper.readSearchParts('dist');
    await helper.close();
    expect(starts()).toBe(0);
    expect(calls).toEqual([]);
  });

  it('starts once, at the first request, and passes every call on from then', async () => {
    const { helper, calls, starts } = counted();
    expect(await helper.render(['a'])).toEqual(['<p>a</p>']);
    expect(await helper.digests(['f'])).toEqual(['digest of f']);
    helper.readSearchParts('dist');
    helper.pump();
    await helper.close();
    expect(starts()).toBe(1);
    expect(calls).toEqual(['read dist', 'pump', 'close']);
  });
});
