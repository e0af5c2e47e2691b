/** Where the handler reads the generated files from: memory in tests, disk locally, the CDN on the edge. */

export interface Assets {
  /** The text of the file at `path` (relative to the build output, no leading slash), or null if none. */
  read(path: string): Promise<string | null>;
}

export function createMemoryAssets(files: ReadonlyMap<string, string> | Record<string, string>): Assets {
  const map = files instanceof Map ? files : new Map(Object.entries(files));
  return { read: async (path) => map.get(path) ?? null };
}

/**
 * Reads the deployed static files over HTTP from the site's own origin. The data lives outside `/v1/`,
 * so these requests never reach the edge function again.
 */
export function createFetchAssets(origin: string, fetchImpl: typeof fetch = fetch): Assets {
  return {
    async read(path) {
      const response = await fetchImpl(new URL(`/${path}`, origin));
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`asset ${path}: HTTP ${response.status}`);
      return response.text();
    },
  };
}
