/** The local server (`npm run serve`) on a built `dist/`, on a free local port: the API and the static site. */
import type { AddressInfo } from 'node:net';
import { createServer, type ServerOptions } from '../../generator/server/create-server.ts';

export interface SiteServer {
  /** Origin of the server, without a trailing slash, e.g. `http://127.0.0.1:40123`. */
  url: string;
  close(): Promise<void>;
}

export async function startSiteServer(dist: string, options: Omit<ServerOptions, 'dist'> = {}): Promise<SiteServer> {
  const server = createServer({ ...options, dist });
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
