/**
 * Orders strings by UTF-16 code unit, never by locale, so every machine and runtime sorts alike (docs/api.md:
 * "same content in, same bytes out").
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
