/**
 * Which compression a response may use: the client's `Accept-Encoding` (RFC 9110, section 12.5.3) against
 * what the server can send, and which content types are worth compressing.
 */

export type Encoding = 'br' | 'gzip';

/** The suffix a compressed representation's ETag carries, so it never shares a validator with the plain one. */
export const ETAG_SUFFIX: Record<Encoding, string> = { br: '-br', gzip: '-gz' };

/** Ours in order of preference: Brotli is smaller at the same cost, gzip is understood everywhere. */
const OFFERED: readonly Encoding[] = ['br', 'gzip'];

/** Longest header read; a real one is a few dozen characters, and anything past this is not looked at. */
const MAX_HEADER_LENGTH = 1024;

function weight(params: string[]): number {
  for (const param of params) {
    const [name, value] = param.split('=').map((part) => part.trim());
    if (name?.toLowerCase() !== 'q') continue;
    const q = Number(value);
    return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value ?? '') && q >= 0 && q <= 1 ? q : 0;
  }
  return 1;
}

/**
 * The encoding to send for this `Accept-Encoding`, or null for none: the offered encoding with the highest
 * weight above 0 (`*` stands for any not named), Brotli on a tie. No header means no compression: a client
 * that says nothing may not decode anything (curl without `--compressed`).
 */
export function negotiateEncoding(header: string | string[] | undefined): Encoding | null {
  if (header === undefined) return null;
  const text = (Array.isArray(header) ? header.join(',') : header).slice(0, MAX_HEADER_LENGTH);
  const weights = new Map<string, number>();
  for (const item of text.split(',')) {
    const [coding, ...params] = item.split(';');
    const name = coding!.trim().toLowerCase();
    if (name) weights.set(name === 'x-gzip' ? 'gzip' : name, weight(params));
  }
  let best: Encoding | null = null;
  let bestWeight = 0;
  for (const encoding of OFFERED) {
    const q = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (q > bestWeight) [best, bestWeight] = [encoding, q];
  }
  return best;
}

/**
 * Text worth compressing: markup, styles, scripts, JSON, XML, SVG, plain text and WebAssembly. An event
 * stream is not (a compressor would hold its events back), nor are images and fonts already compressed.
 */
export function isCompressible(contentType: unknown): boolean {
  if (typeof contentType !== 'string') return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/event-stream') return false;
  return (
    type.startsWith('text/') ||
    type.endsWith('+json') ||
    type.endsWith('+xml') ||
    ['application/json', 'application/javascript', 'application/xml', 'application/wasm', 'application/yaml'].includes(type)
  );
}

/** Adds `Accept-Encoding` to a `Vary` value once. */
export function varyOnEncoding(vary: unknown): string {
  const current = Array.isArray(vary) ? vary.join(', ') : typeof vary === 'string' ? vary : '';
  if (current.trim() === '*') return current;
  const names = current
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.some((name) => name.toLowerCase() === 'accept-encoding')) return names.join(', ');
  return [...names, 'Accept-Encoding'].join(', ');
}

/** `"abc"` -> `"abc-br"`; `W/"abc"` -> `W/"abc-br"`; a tag that has the suffix already stays as it is. */
export function suffixEtag(etag: string, encoding: Encoding): string {
  if (!etag.endsWith('"') || etag.endsWith(`${ETAG_SUFFIX[encoding]}"`)) return etag;
  return `${etag.slice(0, -1)}${ETAG_SUFFIX[encoding]}"`;
}

/**
 * `If-None-Match` with this encoding's suffix taken off each tag, so the server's own plain validator
 * recognises a compressed representation it sent; null when no tag carried the suffix.
 */
export function stripEtagSuffix(ifNoneMatch: string, encoding: Encoding): string | null {
  const suffix = `${ETAG_SUFFIX[encoding]}"`;
  let stripped = false;
  const tags = ifNoneMatch.split(',').map((tag) => {
    const trimmed = tag.trim();
    if (!trimmed.endsWith(suffix)) return trimmed;
    stripped = true;
    return `${trimmed.slice(0, -suffix.length)}"`;
  });
  return stripped ? tags.join(', ') : null;
}
