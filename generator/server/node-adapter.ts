/**
 * The handler behind Node's HTTP server: a Node request as a Web `Request` (whatever its method or request
 * target), the client address the limit counts, and the Web `Response` written back.
 */
import { STATUS_CODES } from 'node:http';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { forwardedClient } from '../edge/client-address.ts';
import type { Handler } from '../edge/handler.ts';
import { API_BASE_PATH } from '../shared/policy.ts';

/** Methods a Web `Request` cannot carry (the fetch standard forbids them); the handler is told them apart. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The path and query of a request target in any of its forms: origin-form (`/v1/health`), absolute-form
 * (`http://host/v1/health`, which proxies send) or anything else (`*`, garbage), which becomes `/`-rooted.
 */
export function targetPath(target: string | undefined): string {
  const value = target ?? '/';
  if (value.startsWith('/') && !value.startsWith('//')) return value;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return `${url.pathname}${url.search}`;
  } catch {
    // Not an absolute URL either.
  }
  return `/${value.replace(/^\/+/, '')}`;
}

/** The socket's address, or behind `trustedProxies` proxies the address the nearest one appended. */
export function clientAddress(request: http.IncomingMessage, trustedProxies: number): string {
  const header = request.headers['x-forwarded-for'];
  const forwarded = forwardedClient(Array.isArray(header) ? header.join(',') : header, trustedProxies);
  return forwarded ?? request.socket.remoteAddress ?? 'unknown';
}

function toWebRequest(request: http.IncomingMessage, method: string, body?: ReadableStream<Uint8Array>): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  // The URL's host is irrelevant to routing; only the MCP endpoint reads a body.
  return new Request(new URL(targetPath(request.url), 'http://localhost'), { method, headers, body, ...(body ? { duplex: 'half' } : {}) });
}

/**
 * The request's body as a Web stream that the handler reads at its own pace: it asks the limit before it
 * reads, and stops at its cap or deadline. Stopping pauses the socket rather than destroying it, so the
 * answer still goes out; the connection then closes (see serveMcp).
 */
function bodyStream(request: http.IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        request.pause();
        request.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk));
          if ((controller.desiredSize ?? 0) <= 0) request.pause();
        });
        request.once('end', () => open && controller.close());
        request.once('error', (error) => open && controller.error(error));
      },
      pull() {
        request.resume();
      },
      cancel() {
        open = false;
        request.pause();
      },
    },
    { highWaterMark: 4 },
  );
}

/** Answers one Node request through the MCP handler, which reads the body itself (one cap on every platform). */
export async function serveMcp(
  handler: Handler,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  trustedProxies: number,
): Promise<void> {
  const body = req.method === 'POST' ? bodyStream(req) : undefined;
  // A body the handler did not read to its end (too large, too slow) is not drained: the connection ends.
  res.once('finish', () => {
    if (!req.complete) req.socket.destroySoon?.() ?? req.destroy();
  });
  await serveApi(handler, req, res, trustedProxies, body);
}

async function sendWebResponse(response: Response, res: http.ServerResponse): Promise<void> {
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  const body = response.body ? await response.text() : undefined;
  if (body !== undefined) res.setHeader('content-length', Buffer.byteLength(body));
  res.writeHead(response.status);
  res.end(body);
}

/** Answers one Node request through the handler; `body` is the request's body where the handler reads one (MCP). */
export async function serveApi(
  handler: Handler,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  trustedProxies: number,
  body?: ReadableStream<Uint8Array>,
): Promise<void> {
  const method = req.method ?? 'GET';
  // A method a Web Request refuses reaches the handler as a stand-in, with the real one beside it, and gets
  // the API's own 405 (counted by the limit) rather than a crash.
  const forbidden = FORBIDDEN_METHODS.has(method.toUpperCase());
  const request = toWebRequest(req, forbidden ? 'GET' : method, body);
  const response = await handler(request, { ip: clientAddress(req, trustedProxies), ...(forbidden ? { method } : {}) });
  await sendWebResponse(response, res);
}

/**
 * CONNECT asks to open a tunnel; Node hands it over as a bare socket. It gets the API's 405 like any other
 * method (counted by the limit), written as plain HTTP, and the connection ends.
 */
export async function answerConnect(handler: Handler, req: http.IncomingMessage, socket: Duplex, trustedProxies: number): Promise<void> {
  socket.on('error', () => socket.destroy());
  const request = new Request(new URL(`${API_BASE_PATH}/`, 'http://localhost'), { method: 'GET' });
  const response = await handler(request, { ip: clientAddress(req, trustedProxies), method: 'CONNECT' });
  const body = await response.text();
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
  response.headers.forEach((value, name) => {
    lines.push(`${name}: ${value}`);
  });
  lines.push(`content-length: ${Buffer.byteLength(body)}`, 'connection: close');
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
