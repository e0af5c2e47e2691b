/**
 * Which of `parts` parts a path is kept in (the load store, the records beside the output): FNV-1a of the
 * path (`pathHash`), which spreads paths as evenly as a cryptographic digest does for this use (nothing is trusted by it).
 * Asked once per path a build reaches: a SHA-1 per path took a tenth of a second per 20,000 files on a
 * loaded machine.
 */
export function partOfPath(file: string, parts: number): number {
  const value = pathHash(file);
  // The high bits folded into the low ones, which alone pick the part.
  return ((value ^ (value >>> 16)) >>> 0) % parts;
}

/** FNV-1a of a path, 32 bits (a stored order tells its files apart by it: stored-order.ts). */
export function pathHash(file: string): number {
  let value = 0x811c9dc5;
  for (let at = 0; at < file.length; at++) value = Math.imul(value ^ file.charCodeAt(at), 0x01000193);
  return value;
}
