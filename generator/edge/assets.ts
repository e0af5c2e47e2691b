/** Where the handler reads the generated files from: memory in tests, disk locally, the CDN on the edge. */

export interface Assets {
  /** The text of the file at `path` (relative to the build output, no leading slash), or null if none. */
  read(path: string): Promise<string | null>;
  /** The bytes of the file at `path`, or null if none: the search index's binary parts. */
  readBytes(path: string): Promise<Uint8Array | null>;
}

type MemoryFile = string | Uint8Array;

export function createMemoryAssets(files: ReadonlyMap<string, MemoryFile> | Record<string, MemoryFile>): Assets {
  const map = files instanceof Map ? files : new Map(Object.entries(files));
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return {
    read: async (path) => {
      const file = map.get(path);
      return file === undefined ? null : typeof file === 'string' ? file : decoder.decode(file);
    },
    readBytes: async (path) => {
      const file = map.get(path);
      return file === undefined ? null : typeof file === 'string' ? encoder.encode(file) : file;
    },
  };
}

/**
 * Reads the deployed static files over HTTP from the site's own origin. The data lives outside `/v1/`,
 * so these requests never reach the edge function again.
 */
export function createFetchAssets(origin: string, fetchImpl: typeof fetch = fetch): Assets {
  const get = async (path: string): Promise<Response | null> => {
    const response = await fetchImpl(new URL(`/${path}`, origin));
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`asset ${path}: HTTP ${response.status}`);
    return response;
  };
  return {
    read: async (path) => (await get(path))?.text() ?? null,
    readBytes: async (path) => {
      const response = await get(path);
      return response ? new Uint8Array(await response.arrayBuffer()) : null;
    },
  };
}
