/**
 * Loaded into Decap's local proxy (decap-server) before it starts, by cms-proxy.ts: the proxy reads, writes
 * and deletes content with no authentication of its own, so every request it gets is checked here first.
 * It must be addressed to the loopback name and port it listens on (a page that points its own domain at
 * 127.0.0.1, DNS rebinding, is refused), come from the dev server's own origin when a browser sends it, and
 * carry the per-run token in its path, which only the dev server's admin page is given. Anything else gets
 * 403 before the proxy sees it. Plain JavaScript: it runs in the proxy's process, which has no TypeScript loader.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';

const token = Buffer.from(process.env.CMS_PROXY_TOKEN ?? '');
const origins = new Set((process.env.CMS_PROXY_ORIGINS ?? '').split(' ').filter(Boolean));
/** Host headers naming the proxy: set once it listens, on the port the system gave it. */
let hosts = new Set();

/** The path after `/<token>`, or null when the path does not start with the token. */
function afterToken(url) {
  const end = url.indexOf('/', 1);
  if (end === -1 || token.length === 0) return null;
  const given = Buffer.from(url.slice(1, end));
  return given.length === token.length && timingSafeEqual(given, token) ? url.slice(end) : null;
}

function allowed(req) {
  if (!hosts.has(String(req.headers.host ?? '').toLowerCase())) return false;
  const origin = req.headers.origin;
  return origin === undefined || origins.has(origin);
}

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function guarded(event, req, res, ...rest) {
  if (event === 'listening') {
    // The proxy listens on port 0, so no other process can take its port between a choice and the listen;
    // the dev server learns the port from this message.
    const { port } = this.address();
    hosts = new Set(['127.0.0.1', 'localhost'].map((name) => `${name}:${port}`));
    process.send?.({ listening: port });
  }
  if (event === 'error' && !this.listening && process.send) {
    // Said by the dev server in a line, not as this process's stack trace.
    const reason = req?.code === 'EADDRINUSE' ? `port ${process.env.PORT} is in use` : String(req?.message ?? req);
    process.send({ failed: reason }, () => process.exit(1));
    return true;
  }
  if (event !== 'request') return emit.call(this, event, req, res, ...rest);
  const forwarded = allowed(req) ? afterToken(req.url ?? '/') : null;
  if (forwarded === null) {
    res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    res.end("Forbidden: the content manager proxy answers the dev server's admin page only.");
    return true;
  }
  req.url = forwarded;
  return emit.call(this, event, req, res, ...rest);
};
