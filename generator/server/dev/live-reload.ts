/**
 * Live reload for `npm run dev` only: pages get a small script that listens to an event stream and reloads
 * when a new build is served. None of it is in a build; the dev server adds it to the pages it sends.
 */
import type http from 'node:http';

export const EVENTS_PATH = '/__dev/events';
/**
 * Open pages listened to at once. Each holds a connection (and a file descriptor) for as long as it is open;
 * past this, a page gets 503 and its browser retries later, rather than the server running out of descriptors.
 */
export const MAX_LISTENERS = 64;
export const SCRIPT_PATH = '/__dev/reload.js';

const SCRIPT = `// Dev only: reloads the page when the dev server has served a new build.
new EventSource('${EVENTS_PATH}').addEventListener('build', () => location.reload());
`;

export interface LiveReload {
  /** Answers the event stream and the script; false for any other path. */
  serve(pathname: string, res: http.ServerResponse): boolean;
  /** The page with the script added before `</body>`. */
  inject(html: string): string;
  /** The page's policy, letting the script load and listen. */
  allow(csp: string): string;
  /** Tells every open page that a new build is served. */
  announce(): void;
  close(): void;
}

export function createLiveReload(): LiveReload {
  const listeners = new Set<http.ServerResponse>();
  return {
    serve(pathname, res) {
      if (pathname === SCRIPT_PATH) {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
        res.end(SCRIPT);
        return true;
      }
      if (pathname !== EVENTS_PATH) return false;
      if (listeners.size >= MAX_LISTENERS) {
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '10', connection: 'close' });
        res.end(`More than ${MAX_LISTENERS} pages are listening for rebuilds; close some.`);
        return true;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': connected\n\n');
      listeners.add(res);
      res.on('close', () => listeners.delete(res));
      return true;
    },
    inject(html) {
      const tag = `<script src="${SCRIPT_PATH}"></script>\n`;
      return html.includes('</body>') ? html.replace('</body>', `${tag}</body>`) : `${html}${tag}`;
    },
    allow(csp) {
      let policy = csp;
      if (/script-src 'none'/.test(policy) || !/script-src/.test(policy))
        policy = `${policy.replace(/;?\s*script-src[^;]*/, '')}; script-src 'self'`;
      if (!/connect-src/.test(policy)) policy = `${policy}; connect-src 'self'`;
      return policy;
    },
    announce() {
      for (const res of listeners) res.write('event: build\ndata: {}\n\n');
    },
    close() {
      for (const res of listeners) res.end();
      listeners.clear();
    },
  };
}
