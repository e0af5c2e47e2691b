/**
 * Reads a request's body within a size cap and a deadline, the same on every platform (the Node server
 * and Netlify Edge hand over the body as a stream): a body announced or found larger than the cap is not
 * read further, and a client that sends slowly loses its request when the deadline passes.
 */

export type BodyResult = { text: string } | { problem: 'too-large' | 'timeout' | 'unreadable' };

/** Resolves with 'timeout' after `ms`; `cancel` lets the process exit without waiting for it. */
export function startDeadline(ms: number): { expired: Promise<'timeout'>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return { expired, cancel: () => clearTimeout(timer) };
}

export async function readBody(request: Request, maxBytes: number, expired: Promise<'timeout'>): Promise<BodyResult> {
  const announced = Number(request.headers.get('content-length') ?? 0);
  if (announced > maxBytes) return { problem: 'too-large' };
  if (!request.body) return { text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), expired]);
      if (next === 'timeout') return { problem: 'timeout' };
      if (next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) return { problem: 'too-large' };
      chunks.push(next.value);
    }
  } catch {
    return { problem: 'unreadable' };
  } finally {
    // The rest of an oversized or late body is not wanted; the platform closes the connection after the answer.
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { problem: 'unreadable' };
  }
}
