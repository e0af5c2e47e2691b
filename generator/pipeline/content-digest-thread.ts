/**
 * The content files' digests for the record of a build that had none to compare with (content-digests.ts):
 * read and hashed here, beside the build's own work, as the nothing-changed check would have hashed them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { digestFile } from './content-digests.ts';

const { files } = workerData as { files: string[] };
let answer: string[] | { error: string };
try {
  answer = files.map(digestFile);
} catch (error) {
  answer = { error: error instanceof Error ? error.message : String(error) };
}
parentPort?.postMessage(answer);
