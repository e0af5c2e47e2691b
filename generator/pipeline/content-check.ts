/**
 * The nothing-changed check of `npm run build` (build-fingerprint.ts) in a thread of its own
 * (content-check-thread.ts), so that the build's thread loads the build's modules and reads the load store's
 * parts meanwhile: at 100,000 articles the check (the last build's record read, the content listed and every
 * file statted) took about 0.6 s of the build's thread before its build could start. The fingerprint comes back
 * as columns (the witnesses, the devices and kinds of the files statted, the listing's names and kinds) and is
 * made whole here. Where no thread starts or it fails, the check runs in this thread.
 */
import { existsSync } from 'node:fs';
import { type BuildInputs, type Fingerprint, fingerprintBuild, readBuildRecord, recordFile } from './build-fingerprint.ts';
import { type FileStats, kindCode, kindOf, statsOf } from './load/file-stats.ts';
import { type Gate, openGate } from './thread-gate.ts';
import { startTypeScriptWorker } from './typescript-worker.ts';

/** A fingerprint as a thread hands it over: its maps and the listing's objects as columns. */
export function packFingerprint(fingerprint: Fingerprint) {
  const { value, generator, content, reread, recorded, changed, stats, listing } = fingerprint;
  // The files statted are the witnesses' rows, in their order (content-witnesses.ts digestContent).
  const statted = content.paths.map((name) => stats.get(name)!);
  const { content: _, ...summary } = recorded ?? {};
  return {
    value,
    generator,
    content,
    reread,
    recorded: recorded && (summary as Omit<NonNullable<Fingerprint['recorded']>, 'content'>),
    changed: changed && { files: [...changed.files], output: changed.output },
    devices: Float64Array.from(statted, (file) => file.dev),
    kinds: Int32Array.from(statted, kindCode),
    root: listing.root,
    names: listing.names.map((name) => name.path),
    listed: Int32Array.from(listing.names, (name) => kindCode(name.dirent)),
  };
}

function unpackFingerprint(packed: ReturnType<typeof packFingerprint>): Fingerprint {
  const { content, devices, kinds, root, names, listed, changed, ...rest } = packed;
  const stats = new Map<string, FileStats>();
  const { paths, inodes, sizes, mtimes, ctimes } = content;
  for (let at = 0; at < paths.length; at++)
    stats.set(paths[at]!, statsOf(devices[at]!, inodes[at]!, sizes[at]!, mtimes[at]!, ctimes[at]!, kinds[at]!));
  return {
    ...rest,
    content,
    stats,
    listing: { root, names: names.map((path, at) => ({ path, dirent: kindOf(listed[at]!) })) },
    changed: changed && { files: new Set(changed.files), output: changed.output },
  };
}

type Answer = ReturnType<typeof packFingerprint> | { cold: true } | { error: string };

/**
 * The fingerprint of `inputs` against the last build's record; undefined when there is no record (a cold build:
 * fingerprintCold). `gate` is opened once the check is done, whichever thread did it (thread-gate.ts).
 */
export async function checkContentInThread(inputs: BuildInputs, gate?: Gate): Promise<Fingerprint | undefined> {
  try {
    return await checkContent(inputs, gate);
  } finally {
    if (gate) openGate(gate);
  }
}

function checkContent(inputs: BuildInputs, gate: Gate | undefined): Promise<Fingerprint | undefined> {
  if (!existsSync(recordFile(inputs.outDir))) return Promise.resolve(undefined);
  const here = () => {
    const recorded = readBuildRecord(inputs.outDir);
    return recorded ? fingerprintBuild(inputs, recorded) : undefined;
  };
  return new Promise((resolve, reject) => {
    let answered = false;
    const answer = (found: () => Fingerprint | undefined) => {
      if (answered) return;
      answered = true;
      try {
        resolve(found());
      } catch (error) {
        reject(error);
      }
    };
    let worker: ReturnType<typeof startTypeScriptWorker>;
    try {
      worker = startTypeScriptWorker(new URL('./content-check-thread.ts', import.meta.url), { ...inputs, gate });
    } catch {
      answer(here);
      return;
    }
    worker.once('message', (found: Answer) => {
      void worker.terminate();
      // A failure is the check's to report as this thread's own would (the content folder unreadable, say).
      answer(() => ('cold' in found ? undefined : 'error' in found ? here() : unpackFingerprint(found)));
    });
    worker.once('error', () => answer(here));
    worker.once('exit', () => answer(here));
  });
}
