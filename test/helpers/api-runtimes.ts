/**
 * One handler suite, several runtimes (STYLE 14): the handler called in memory, and the same handler behind
 * the real local Node server over HTTP. Each runtime answers `request(path, init)` with a Web Response.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import fg from 'fast-glob';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import { createHandler, type HandlerOptions } from '../../generator/edge/handler.ts';
import { createServer } from '../../generator/server/create-server.ts';
import { OPENAPI_PATH } from '../../generator/shared/data-paths.ts';
import { createResponseValidator } from './openapi-validator.ts';

export interface ApiRequestInit extends RequestInit {
  /** The client address the request comes from (default 127.0.0.1). */
  ip?: string;
}

export interface ApiClient {
  request(pathAndQuery: string, init?: ApiRequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface Runtime {
  name: string;
  start(dist: string, options?: Partial<HandlerOptions>): Promise<ApiClient>;
}

/** Every file of a build, as the in-memory assets a test handler reads. */
export function readDistFiles(dist: string): Map<string, string | Uint8Array> {
  const files = fg.sync('_api/**/*', { cwd: dist, onlyFiles: true });
  // Binary parts (the search postings) as bytes, everything else as text.
  return new Map(
    files.map((file) => [
      file,
      file.endsWith('.bin') ? new Uint8Array(readFileSync(path.join(dist, file))) : readFileSync(path.join(dist, file), 'utf8'),
    ]),
  );
}

const silent = () => {};

export const memoryRuntime: Runtime = {
  name: 'in memory',
  async start(dist, options = {}) {
    const handler = createHandler({ assets: createMemoryAssets(readDistFiles(dist)), logError: silent, ...options });
    return {
      request: (pathAndQuery, init = {}) => handler(new Request(`http://api.test${pathAndQuery}`, init), { ip: init.ip ?? '127.0.0.1' }),
      close: async () => {},
    };
  },
};

export const httpRuntime: Runtime = {
  name: 'Node HTTP server',
  async start(dist, options = {}) {
    // TRUST_PROXY lets a test speak for several client addresses through X-Forwarded-For.
    const server = createServer({ dist, trustedProxies: 1, handler: { logError: silent, ...options } });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      request(pathAndQuery, init = {}) {
        const headers = new Headers(init.headers);
        headers.set('X-Forwarded-For', init.ip ?? '127.0.0.1');
        return fetch(`${base}${pathAndQuery}`, { ...init, headers });
      },
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  },
};

/**
 * Contract tests: every response a suite receives is checked against the build's own OpenAPI document
 * for its path and status, and a mismatch fails the request that got it.
 */
function withContractCheck(runtime: Runtime): Runtime {
  return {
    name: runtime.name,
    async start(dist, options) {
      const client = await runtime.start(dist, options);
      const validate = createResponseValidator(JSON.parse(readFileSync(path.join(dist, OPENAPI_PATH), 'utf8')));
      return {
        close: () => client.close(),
        async request(pathAndQuery, init = {}) {
          const response = await client.request(pathAndQuery, init);
          const method = init.method ?? 'GET';
          const pathname = pathAndQuery.split('?')[0]!;
          // HEAD and a preflight have no body; the document describes GET and the errors of every method.
          if (method !== 'HEAD' && method !== 'OPTIONS') {
            const text = await response.clone().text();
            const errors = validate(pathname, response.status, text ? JSON.parse(text) : undefined);
            if (errors.length) throw new Error(`${method} ${pathAndQuery} does not match the OpenAPI document:\n${errors.join('\n')}`);
          }
          return response;
        },
      };
    },
  };
}

export const runtimes: Runtime[] = [memoryRuntime, httpRuntime].map(withContractCheck);
