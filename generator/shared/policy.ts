/**
 * The API's policies, each stated once: where it lives, what it allows, how it may be cached. The handler
 * enforces them, the OpenAPI document and the pages describe them, and both read the figures from here.
 */

/** The versioned root under the site (docs/api.md "Addresses": `{base_url}` is `{site_url}/v1/`). */
export const API_BASE_PATH = '/v1';
/** The MCP endpoint (Model Context Protocol, Streamable HTTP): the API's tools for AI agents. */
export const MCP_PATH = '/mcp';

/**
 * docs/api.md "MCP endpoint for agents": the largest body (a tool call is a few hundred bytes), the time a request has from its
 * first byte to its answer, and the one method that carries a message.
 */
export const MCP_POLICY = { maxBodyBytes: 64 * 1024, deadlineMs: 10_000, allow: 'POST' } as const;

/** The major version the base path stands for; `site.yaml`'s `api_version` must be of this major. */
export const API_MAJOR_VERSION = 1;

/** docs/api.md "Rate limit": requests per rolling window per client address, over all of `/v1/`. */
export const RATE_LIMIT = { requests: 100, windowSeconds: 60 } as const;

/** docs/api.md "Headers, caching and methods". */
export const ALLOWED_METHODS = 'GET, HEAD';

/** docs/api.md "Headers, caching and methods": clients cache a success for an hour (the spec's advice); errors are never cached. */
export const CACHE_CONTROL = { success: 'public, max-age=3600', error: 'no-store' } as const;
