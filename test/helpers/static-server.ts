/** Serves a built `dist/` folder over real HTTP, as static hosting would, on a free local port. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import handler from 'serve-handler';

export interface StaticServer {
  /** Origin of the server, without a trailing slash, e.g. `http://127.0.0.1:40123`. */
  url: string;
  close(): Promise<void>;
}

export async function startStaticServer(dir: string): Promise<StaticServer> {
  const server = http.createServer((request, response) => {
    handler(request, response, { public: dir }).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Keep-alive sockets from a browser would hold the server open otherwise.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
