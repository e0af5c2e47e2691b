/**
 * Netlify Edge adapter: `/v1/*` through the shared handler. Assets are the deployed static files, fetched
 * from the site's own origin under `/_api/`, which this function does not match, so it never calls itself.
 */
import { createFetchAssets } from '../../generator/edge/assets.ts';
import { createHandler, type Handler } from '../../generator/edge/handler.ts';

/** One handler per isolate: it keeps the manifest, the search index and the rate-limit window. */
let handler: Handler | undefined;

export default function api(request: Request, context: { ip: string }): Promise<Response> {
  handler ??= createHandler({ assets: createFetchAssets(new URL(request.url).origin) });
  return handler(request, { ip: context.ip });
}

export const config = {
  path: ['/v1', '/v1/*'],
  // Opt-in global backstop (README, "Rate limit"): Netlify counts across all edge locations but answers
  // with its own 429 body, not the API's envelope.
  // rateLimit: { windowLimit: 100, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
