/**
 * The output tracker's keys when each file's inputs are kept in memory (npm run dev): a file whose inputs are
 * the same string as the previous build's takes that build's key without hashing them again, and is carried;
 * the same inputs under another scope (the content's newest date, the settings) are never taken for the same.
 */
import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createOutputTracker, type TrackedOutputs } from '../../generator/pipeline/output-tracker.ts';

const digest = (body: string | Uint8Array) => hash('sha1', body, 'base64');

/** One build of `files` (path -> inputs): what the tracker carried, and what it keeps for the next build. */
function build(previous: TrackedOutputs | undefined, scope: string, files: Record<string, string>) {
  const tracker = createOutputTracker({ previous, scope, digests: new Map(), keepInputs: true });
  const made = Object.entries(files).map(([path, inputs]) => tracker.file(path, inputs, () => `${path} from ${inputs}`));
  const carried = made.filter((file) => 'carried' in file).map((file) => file.path);
  const bodies = made.map((file) => [file.path, digest('carried' in file ? file.make() : (file as { body: string }).body)] as const);
  return { carried, outputs: tracker.settle(new Map(bodies))! };
}

describe('the output tracker with inputs kept in memory', () => {
  it('carries a file whose inputs did not change under the same key as a build that hashed them', () => {
    const first = build(undefined, 'scope one', { a: 'record 1', b: 'record 2' });
    expect(first.outputs.inputs?.byPath.get('a')).toBe('record 1');
    const second = build(first.outputs, 'scope one', { a: 'record 1', b: 'record 2, edited' });
    expect(second.carried).toEqual(['a']);
    // The key taken over is the one hashing would give: a tracker that keeps no inputs agrees with it.
    const hashed = createOutputTracker({ previous: undefined, scope: 'scope one', digests: new Map() });
    hashed.file('a', 'record 1', () => 'x');
    expect(second.outputs.files.get('a')![0]).toBe(hashed.settle(new Map([['a', 'x']]))!.files.get('a')![0]);
  });

  it('takes nothing over from inputs kept under another scope', () => {
    const first = build(undefined, 'scope one', { a: 'record 1' });
    const other = build(first.outputs, 'scope two', { a: 'record 1' });
    expect(other.carried).toEqual([]);
    expect(other.outputs.files.get('a')![0]).not.toBe(first.outputs.files.get('a')![0]);
  });
});
