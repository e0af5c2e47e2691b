/**
 * Any method, any request target, any byte in a path, sent as raw HTTP to the real server: the contract's
 * envelope on /v1/ (a 405 for every method but GET and HEAD, counted by the limit), a clean 400 or 404 on the
 * static side, never a 500 or a stack trace.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { createServer } from '../../generator/server/create-server.ts';
import { buildInto, removeBuildDirs } from '../helpers/build-output.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';

let server: http.Server;
let port: number;
const logged: string[] = [];

beforeAll(async () => {
  const dist = await buildInto(VALID_FIXTURE);
  server = createServer({ dist, log: (line) => logged.push(line), handler: { limiter: createMemoryLimiter({ limit: 1_000_000 }) } });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  removeBuildDirs();
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends one raw request line (and headers) and reads the whole response; the connection is closed after it. */
function rawRequest(line: string, headers: string[] = []): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const parsed = Object.fromEntries(
        headerLines.map((header) => [header.slice(0, header.indexOf(':')).toLowerCase(), header.slice(header.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers: parsed, body: rest.join('\r\n\r\n') });
    });
    socket.write(`${line}\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers.map((header) => `${header}\r\n`).join('')}\r\n`);
  });
}

/** Every method Node's parser accepts, but those that switch protocols (CONNECT is asked on its own below). */
const METHODS = http.METHODS.filter((method) => !['CONNECT', 'PRI'].includes(method));

describe('the local server under hostile requests', () => {
  it.each(METHODS)('answers %s on /v1/ with the contract: GET and HEAD served, every other method a 405 envelope', async (method) => {
    const response = await rawRequest(`${method} /v1/health HTTP/1.1`);
    if (method === 'GET' || method === 'HEAD') {
      expect(response.status).toBe(200);
      return;
    }
    expect(response.status, method).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(JSON.parse(response.body).error).toMatchObject({
      code: 'METHOD_NOT_ALLOWED',
      message: `Method ${method} is not allowed; this API is read-only (GET, HEAD).`,
    });
  });

  it('answers CONNECT with the same 405 envelope', async () => {
    const response = await rawRequest('CONNECT 127.0.0.1:443 HTTP/1.1');
    expect(response.status).toBe(405);
    expect(JSON.parse(response.body).error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('counts TRACE against the limit like any request', async () => {
    const dist = await buildInto(VALID_FIXTURE);
    const limited = createServer({ dist, handler: { limiter: createMemoryLimiter({ limit: 2 }) } });
    await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve));
    try {
      const send = (method: string) =>
        fetch(`http://127.0.0.1:${(limited.address() as AddressInfo).port}/v1/health`, { method }).then((r) => r.status);
      const statuses = [await send('GET'), await send('DELETE')];
      const trace = await new Promise<number>((resolve) => {
        const request = http.request(
          { port: (limited.address() as AddressInfo).port, host: '127.0.0.1', path: '/v1/health', method: 'TRACE' },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        request.end();
      });
      expect([...statuses, trace]).toEqual([200, 405, 429]);
    } finally {
      await new Promise((resolve) => limited.close(resolve));
    }
  });

  it.each([
    ['an absolute-form target to the API', 'GET http://example.test/v1/health HTTP/1.1', 200, 'application/json'],
    ['a NUL in an API path', 'GET /v1/%00 HTTP/1.1', 404, 'application/json'],
    ['a NUL in a static path', 'GET /resources/%00 HTTP/1.1', 400, 'text/plain'],
    ['a broken percent-escape', 'GET /%E0%A4%A HTTP/1.1', 400, 'text/plain'],
    ['an asterisk target', 'GET * HTTP/1.1', 404, ''],
    // Dot segments above the root are dropped (RFC 3986, 5.2.4): the path is /etc/passwd, which the build has not.
    ['a path that climbs out', 'GET /../../etc/passwd HTTP/1.1', 404, ''],
    ['a scheme-relative target', 'GET //evil.example/x HTTP/1.1', 404, ''],
  ])('answers %s cleanly', async (_name, line, status, type) => {
    const response = await rawRequest(line);
    expect(response.status).toBe(status);
    if (type) expect(response.headers['content-type']).toContain(type);
    expect(response.body).not.toMatch(/\n\s+at /);
  });

  it('sends HEAD on /v1/ with the Content-Length GET would have', async () => {
    const get = await rawRequest('GET /v1/services/list HTTP/1.1');
    const head = await rawRequest('HEAD /v1/services/list HTTP/1.1');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    // The same envelope but for its per-request meta (processing time), whose digits may differ by one or two.
    expect(Math.abs(Number(head.headers['content-length']) - Buffer.byteLength(get.body, 'latin1'))).toBeLessThanOrEqual(2);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(500);
  });

  it('logs no stack trace for any of it', async () => {
    const errors = vi.spyOn(console, 'error');
    await rawRequest('TRACE /v1/health HTTP/1.1');
    await rawRequest('GET /%00 HTTP/1.1');
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    expect(logged.join('\n')).not.toMatch(/\n\s+at /);
  });
});
