/**
 * Who `npm run dev` answers, and what it lets other sites read. Dev serves one person's work in progress,
 * drafts included with `--drafts`, and the content manager's config (which names the CMS proxy's per-run
 * token), so it is private by default:
 * - bound to the loopback interface (the default HOST), it answers only requests addressed to a loopback
 *   name: a page that points its own domain name at 127.0.0.1 (DNS rebinding) gets 403;
 * - the rate limit does not count the editor's own tools on this machine (a front-end under development, a
 *   checker polling); anyone else, and clients behind TRUST_PROXY proxies, are counted as `serve` counts them;
 * - a preview build (`--drafts`, `--future`) is readable by its own origin only: no `Access-Control-Allow-Origin: *`.
 */
import type http from 'node:http';
import type { Handler } from '../../edge/handler.ts';
import type { RateLimiter } from '../../edge/limiter.ts';
import type { HeaderRule } from '../../shared/header-rules.ts';

export interface ServerAccess {
  /** Whether the server answers this request (403 otherwise). */
  allows(req: http.IncomingMessage): boolean;
  /** The build's header rules as this server applies them. */
  rules(rules: HeaderRule[]): HeaderRule[];
  /** The API handler as this server runs it. */
  handler(handler: Handler): Handler;
  /** The limiter as this server counts with it. */
  limiter(limiter: RateLimiter): RateLimiter;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const isLoopbackHost = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');

/** The host name of a Host header (`name:port`, `[v6]:port`), lower case. */
function hostName(header: string | undefined): string {
  const value = (header ?? '').trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  const colon = value.lastIndexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/** A limiter key (client-address.ts's `clientKey`) of this machine: 127/8, or ::1's /64. */
const isLoopbackKey = (key: string) => key.startsWith('127.') || key === '0:0:0:0::/64';

const ALLOW_ORIGIN = 'access-control-allow-origin';

/** Only the server's own origin may read a preview: the request's Origin when it names the Host it was sent to. */
function ownOriginOnly(request: Request, response: Response): Response {
  const origin = request.headers.get('origin');
  const host = request.headers.get('host');
  const headers = new Headers(response.headers);
  headers.delete(ALLOW_ORIGIN);
  if (origin && host && (origin === `http://${host}` || origin === `https://${host}`)) headers.set(ALLOW_ORIGIN, origin);
  headers.append('Vary', 'Origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export function createDevAccess(options: { host: string; preview: boolean }): ServerAccess {
  // Bound to every interface (a container), the server is reached under names it cannot know.
  const checkHost = isLoopbackHost(options.host);
  return {
    allows: (req) => !checkHost || LOOPBACK_NAMES.has(hostName(req.headers.host)),
    rules(rules) {
      if (!options.preview) return rules;
      return rules.map((rule) => ({
        path: rule.path,
        headers: Object.fromEntries(Object.entries(rule.headers).filter(([name]) => name.toLowerCase() !== ALLOW_ORIGIN)),
      }));
    },
    handler(handler) {
      if (!options.preview) return handler;
      return async (request, context) => ownOriginOnly(request, await handler(request, context));
    },
    limiter(limiter) {
      const unlimited = () => ({ allowed: true, limit: limiter.limit, remaining: limiter.limit, retryAfter: 0 });
      return {
        limit: limiter.limit,
        windowSeconds: limiter.windowSeconds,
        hit: (key, now) => (isLoopbackKey(key) ? unlimited() : limiter.hit(key, now)),
        peek: (key, now) => (isLoopbackKey(key) ? unlimited() : limiter.peek(key, now)),
      };
    },
  };
}
