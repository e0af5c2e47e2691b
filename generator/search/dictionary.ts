/**
 * Term look-ups in the dictionary: exact and by prefix, reading only the blocks (index-format.ts) whose range
 * covers the term. Runtime-neutral.
 */
import { entryAt, type TermEntry } from './index-format.ts';
import type { IndexParts } from './index-reader.ts';
import { lastAtOrBefore } from '../shared/sorted-search.ts';

/** The entry of `term`, or undefined when no document has it. */
export async function lookupTerm(parts: IndexParts, blocks: readonly string[], term: string): Promise<TermEntry | undefined> {
  const blockIndex = lastAtOrBefore(blocks, term);
  if (blockIndex < 0) return undefined;
  const block = await parts.block(blockIndex);
  const index = lastAtOrBefore(block.terms, term);
  return index >= 0 && block.terms[index] === term ? entryAt(block, index) : undefined;
}

/** Every term that begins with `prefix` and is longer than it, in code-unit order. */
export async function lookupPrefix(parts: IndexParts, blocks: readonly string[], prefix: string): Promise<TermEntry[]> {
  const found: TermEntry[] = [];
  // Terms with the prefix sort right after it, so they start in the block that would hold the prefix itself.
  for (let blockIndex = Math.max(0, lastAtOrBefore(blocks, prefix)); blockIndex < blocks.length; blockIndex++) {
    if (blocks[blockIndex]! > prefix && !blocks[blockIndex]!.startsWith(prefix)) break;
    const block = await parts.block(blockIndex);
    for (let index = Math.max(0, lastAtOrBefore(block.terms, prefix)); index < block.terms.length; index++) {
      const term = block.terms[index]!;
      if (term.startsWith(prefix)) {
        if (term !== prefix) found.push(entryAt(block, index));
      } else if (term > prefix) return found;
    }
  }
  return found;
}
