/** A file of the build output: written from a body, or copied from a content file. */
export type OutputFile = { path: string; body: string | Uint8Array } | { path: string; copyFrom: string };
