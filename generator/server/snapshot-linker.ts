/**
 * The slow file work of serving builds, kept off the server's thread: a snapshot is linked with asynchronous
 * calls a few at a time (the thread pool does the work, and a request waits at most for one callback), old
 * snapshots are removed the same way, and at shutdown they are handed to a detached process, so a server
 * stops at once whatever the size of its builds.
 */
import { spawn } from 'node:child_process';
import { mkdir, opendir, link } from 'node:fs/promises';
import path from 'node:path';
import { leftovers } from '../pipeline/emit/leftovers.ts';

/** File calls in flight at once: two of the thread pool's four threads, so requests' own reads never queue behind links. */
const CONCURRENCY = 2;

/** Thrown into a linking that was abandoned (a newer build came, or the server stops). */
export class Abandoned extends Error {}

/**
 * Hard-links every file of `from` into `to` (which must not exist), asynchronously; `abandoned()` is asked
 * between calls and ends the linking early.
 */
export async function linkTreeInBackground(from: string, to: string, abandoned: () => boolean): Promise<void> {
  const folders: [string, string][] = [[from, to]];
  const calls = fewAtATime(CONCURRENCY);
  await mkdir(to);
  while (folders.length) {
    const [source, target] = folders.pop()!;
    for await (const entry of await opendir(source)) {
      if (abandoned()) throw new Abandoned();
      const from = path.join(source, entry.name);
      const into = path.join(target, entry.name);
      if (entry.isDirectory()) {
        await mkdir(into);
        folders.push([from, into]);
      } else if (entry.isFile()) await calls.run(() => link(from, into));
    }
  }
  await calls.drain();
}

/**
 * File calls run at most `concurrency` at a time: `run` resolves once another may start, and rejects with the
 * first failure of any; `drain` waits for the last.
 */
export function fewAtATime(concurrency: number) {
  const pending = new Set<Promise<void>>();
  let failure: unknown;
  return {
    async run(job: () => Promise<void>): Promise<void> {
      const tracked: Promise<void> = job().then(
        () => {
          pending.delete(tracked);
        },
        (error: unknown) => {
          pending.delete(tracked);
          failure ??= error;
        },
      );
      pending.add(tracked);
      if (pending.size >= concurrency) await Promise.race(pending);
      if (failure) throw failure;
    },
    async drain(): Promise<void> {
      await Promise.all(pending);
      if (failure) throw failure;
    },
  };
}

/**
 * Removes a folder without taking the server's thread or its thread pool: in a process of its own (a
 * recursive removal in this process would queue thousands of calls ahead of the requests' own file reads).
 * Failures are ignored: the next start removes leftovers.
 */
export function removeInBackground(dir: string): void {
  removeAfterExit([dir]);
}

/**
 * Removes folders in a detached process of its own, which outlives this one: removing a snapshot of a large
 * build takes seconds, which a server, or a server asked to stop, should not spend.
 */
export function removeAfterExit(dirs: readonly string[]): void {
  if (dirs.length === 0) return;
  const script = "const fs=require('node:fs');for(const d of process.argv.slice(1))fs.rmSync(d,{recursive:true,force:true});";
  try {
    spawn(process.execPath, ['-e', script, ...dirs], { detached: true, stdio: 'ignore' }).unref();
  } catch {
    // The next server of this folder removes them (leftovers of a process that ended).
  }
}

/**
 * Once this process has ended, removes every folder it made beside `root` (named `<root><mark><pid>-...`),
 * in a detached process of its own: those it knows of and any being written when it was stopped, which a
 * thread may still be writing until the process ends. A process that ends by a signal is covered too.
 */
export function removeOwnAfterExit(root: string, mark: string): void {
  const script = [
    "const fs=require('node:fs'),path=require('node:path');const [pid,dir,prefix]=process.argv.slice(1);",
    "const alive=()=>{try{process.kill(Number(pid),0);return true}catch(e){return e.code==='EPERM'}};",
    'const sweep=()=>{for(const n of fs.readdirSync(dir))if(n.startsWith(prefix))fs.rmSync(path.join(dir,n),{recursive:true,force:true})};',
    // A minute at most: a process that does not end by then is not waited for.
    'const until=Date.now()+60000;const wait=()=>alive()&&Date.now()<until?setTimeout(wait,20):sweep();wait();',
  ].join('');
  const prefix = `${path.basename(root)}${mark}${process.pid}-`;
  try {
    spawn(process.execPath, ['-e', script, String(process.pid), path.dirname(root), prefix], { detached: true, stdio: 'ignore' }).unref();
  } catch {
    // The next server of this folder removes them (leftovers of a process that ended).
  }
}

/** Removes, in the background, the snapshots left beside `root` by servers that are no longer running. */
export function removeStaleSnapshots(root: string, mark: string): void {
  try {
    removeAfterExit(leftovers(root, mark));
  } catch {
    // No parent folder to look in: nothing was left there.
  }
}
