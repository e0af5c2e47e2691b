/**
 * The slow file work of serving builds, kept off the server's thread and below its priority: a snapshot is
 * linked, and old snapshots are removed, by processes of their own at the lowest CPU priority, so a server
 * answers at its own pace while a large build is linked or removed beside it, and stops at once whatever the
 * size of its builds.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { leftovers } from '../pipeline/emit/leftovers.ts';

/** Thrown into a linking that was abandoned (a newer build came, or the server stops). */
export class Abandoned extends Error {}

/** A linking under way: `done` settles once its process has ended; `stop` ends it at once. */
export interface Linking {
  done: Promise<void>;
  stop(): void;
}

/** How often a linking is asked whether it is still wanted. */
const ASK_MS = 50;

/**
 * The linking process: hard-links every file of `from` into `to` (which must not exist) with synchronous
 * calls at the lowest priority. Every 256 entries it checks that the server that started it still runs,
 * and if not removes what it made and ends: a killed server cannot stop it, and nothing else would know
 * the folder is unfinished. Plain JavaScript, so the process starts without the TypeScript loader.
 */
const LINK_SCRIPT = [
  "const fs=require('node:fs'),os=require('node:os'),path=require('node:path');",
  'const [from,to]=process.argv.slice(1);const parent=process.ppid;let count=0;',
  'try{os.setPriority(19)}catch{}',
  'const orphaned=()=>{if(++count%256===0&&process.ppid!==parent){fs.rmSync(to,{recursive:true,force:true});process.exit(3)}};',
  'fs.mkdirSync(to);const folders=[[from,to]];',
  'while(folders.length){const [s,t]=folders.pop();',
  'for(const e of fs.readdirSync(s,{withFileTypes:true})){orphaned();const a=path.join(s,e.name),b=path.join(t,e.name);',
  'if(e.isDirectory()){fs.mkdirSync(b);folders.push([a,b])}else if(e.isFile())fs.linkSync(a,b)}}',
].join('');

/**
 * Hard-links every file of `from` into `to` (which must not exist) in a process of its own. It is abandoned
 * once `abandoned()` (asked every ASK_MS) is true, or at once by `stop()` (a server that closes, and whose
 * caller may remove the folders next); `done` then rejects with Abandoned, and only once the process has
 * ended, so nothing is still being linked into `to` when the caller removes it.
 */
export function linkTreeInBackground(from: string, to: string, abandoned: () => boolean): Linking {
  // A folder read through this process's handle on it (served-builds.ts) is named by this process's id there.
  const source = from.startsWith('/proc/self/') ? `/proc/${process.pid}/${from.slice('/proc/self/'.length)}` : from;
  let child: ReturnType<typeof spawn> | undefined;
  let stopped = false;
  let asking: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    stopped = true;
    clearInterval(asking);
    child?.kill('SIGKILL');
  };
  const done = new Promise<void>((resolve, reject) => {
    try {
      child = spawn(process.execPath, ['-e', LINK_SCRIPT, source, to], { stdio: 'ignore' });
    } catch (error) {
      return reject(error);
    }
    asking = setInterval(() => abandoned() && stop(), ASK_MS);
    asking.unref();
    // The process is not waited for at exit: a server that ends leaves it to notice and clean up.
    child.unref();
    child.once('error', (error) => {
      clearInterval(asking);
      reject(error);
    });
    child.once('exit', (code) => {
      clearInterval(asking);
      if (stopped || abandoned()) reject(new Abandoned());
      else if (code === 0) resolve();
      else reject(new Error(`linking ${from} into ${to} ended with ${code}`));
    });
  });
  return { done, stop };
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
 * Removes folders in a detached process of its own, which outlives this one, at the lowest priority: removing
 * a snapshot of a large build takes seconds of the machine's time, which a server, or a server asked to stop,
 * should not spend or wait behind.
 */
export function removeAfterExit(dirs: readonly string[]): void {
  if (dirs.length === 0) return;
  const script =
    "const fs=require('node:fs');try{require('node:os').setPriority(19)}catch{}for(const d of process.argv.slice(1))fs.rmSync(d,{recursive:true,force:true});";
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
