/**
 * Queries an attacker would send to make search expensive, each within the contract's 200 characters:
 * one word repeated, many distinct words, many long misspelt words (typo tolerance walks the vocabulary),
 * characters that compatibility folding expands into several words, and a wall of short prefixes.
 */
const fill = (unit: string) => unit.repeat(Math.floor(200 / unit.length)).trim();

export const CRAFTED_QUERIES: Record<string, string> = {
  'one word repeated': fill('agent '),
  'many distinct words':
    'agent commerce payment checkout search model retrieval evaluation catalogue storefront pricing fraud latency gateway protocol vector embedding cohort attribution incrementality',
  'long misspelt words':
    'agentci comerce paymnet chekcout retreival evalutaion catalouge storefornt incrementalty atribution embeding protocl',
  'folding that expands (U+FDFA)': '\uFDFA'.repeat(200),
  'folding with separators (U+33C2)': '\u33C2 '.repeat(100).trim(),
  'short prefixes': fill('abc '),
  'punctuation and digits': fill('1-2-3 ').replace(/ /g, '/'),
};
