// The WebAssembly module of a search's passes over blocks (AssemblyScript): a fresh isolate compiles this
// small module at once (baseline compiler) and runs it at machine speed, where the same loops in JavaScript
// run unoptimized, then cost the optimizing compilers' time as well. block-passes.ts is the JavaScript side
// (memory layout, checks); compile-block-passes.ts turns this file, with the modules it names, into
// block-passes-binary.ts. Pointers are byte offsets into the module's memory, laid out by the JavaScript
// side. Arithmetic on numbers is the JavaScript reader's, operation for operation (IEEE doubles), so results
// are identical. This file is the module's exports, each from the module that does it:
//
// - block-table.as.ts, rare-terms.as.ts: a term's record decoded (and a rare term's postings scored);
// - block-order.as.ts, match-bits.as.ts: the query's words' bounds per block, their order, their sets;
// - block-walk.as.ts and the modules it uses (walk-state, walk-heap, walk-bounds, block-scoring,
//   impact-bounds, forms, varint): the walk over the blocks into the page;
// - typo-scan.as.ts: the typo files' scan.
export { tableBlocks, tableBody, tableBounds, tableLastBlock, tableOffsets } from './block-table.as';
export { decodeRare, prepareRare } from './rare-terms.as';
// quickOf is exported to stay out of line (block-order.as.ts says why); no caller outside uses it.
export { blockOrder, completeBlocks, firstFormBounds, formBounds, orderBounds, quickOf, wordBounds } from './block-order.as';
export { formBits, orBytes, unionCount } from './match-bits.as';
export { bindWalk, walk } from './block-walk.as';
export { lowerByImpacts, tightBound } from './walk-bounds.as';
// bestDocument is exported to stay out of line (impact-bounds.as.ts says why); no caller outside uses it.
export { bestDocument, impactBlockBounds } from './impact-bounds.as';
// impactsByRank is exported to stay out of line (forms.as.ts says why); no caller outside uses it.
export { impactsByRank } from './forms.as';
// matches is exported to stay out of line (typo-scan.as.ts says why); no caller outside uses it.
export { matches, typoScan } from './typo-scan.as';
