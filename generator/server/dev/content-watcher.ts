/**
 * Watches the content folder for `npm run dev`, whichever way files change:
 * - one watch per folder, not per file: a file saved by writing a temporary file and renaming it over the
 *   old one (`sed -i`, editors' "atomic" saves) is a new file in the same folder, which the folder's watch
 *   reports (a watch on the old file would go deaf with it);
 * - folders added, removed or renamed: the watches are brought up to date before each rebuild;
 * - editors' temporary, swap and lock files are not content and start no rebuild;
 * - changes are gathered until they settle, and while git holds its index lock (a `git checkout` or
 *   `git pull` writing a thousand files), then for a longer quiet time, so that such a change is one
 *   rebuild of the finished tree.
 */
import { existsSync, type FSWatcher, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import path from 'node:path';

export interface ContentWatcher {
  /** Resolves once no batch of changes is being gathered (none waiting to settle, and git holding no lock for one). */
  idle(): Promise<void>;
  close(): void;
}

export interface WatchOptions {
  /** Called with the changed paths (relative to the folder) once changes have settled. */
  changed(files: ReadonlySet<string>): void;
  /** Called when the folder can no longer be watched. */
  failed(error: Error): void;
  /** Changes within this long of each other are one batch. */
  settleMs?: number;
}

/** Editors' temporary, backup, swap and lock files (vim, emacs, JetBrains, Kate, LibreOffice, Chrome, macOS, sed -i). */
const EDITOR_FILE =
  /(?:^sed[A-Za-z0-9]{6}$|^\.#|^#.*#$|~$|\.sw[a-px]$|^4913$|\.tmp$|\.crswap$|\.kate-swp$|^\.~lock\.|^\.DS_Store$|___jb_(?:tmp|old)___$)/;
/** Folders that are not content. */
const SKIPPED_FOLDER = new Set(['.git', 'node_modules']);
/**
 * A save is reported within a millisecond or two (a write, or a temporary file renamed over the old one): a
 * short quiet time takes it as one change, and the rebuild starts that much sooner. A longer burst still
 * gathers while it lasts, and what is reported during a rebuild is one rebuild after it (dev-rebuilder.ts).
 */
const SETTLE_MS = 20;
/**
 * A batch that git's lock held back, or that has many files, waits for this long a quiet time instead: the
 * reports of a bulk change's last writes can lag behind it on a busy machine, and any report that comes
 * after the batch was handed over would be a second rebuild. Against the rebuild of that many files, the
 * wait costs nothing.
 */
const BULK_SETTLE_MS = 250;
const BULK_FILES = 50;
/** A batch waits at most this long for changes to stop, and for git's lock to go. */
const MAX_WAIT_MS = 2_000;
const MAX_LOCK_WAIT_MS = 30_000;
const LOCK_POLL_MS = 50;

export const isEditorFile = (name: string) => EDITOR_FILE.test(path.basename(name));

/** The index lock of the git work tree the folder is in, if it is in one. */
function gitIndexLock(folder: string): string | undefined {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const stats = statSync(dotGit, { throwIfNoEntry: false });
    if (stats?.isDirectory()) return path.join(dotGit, 'index.lock');
    if (stats?.isFile()) {
      // A linked work tree: `.git` is a file naming its own git folder.
      const named = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      return named ? path.join(path.resolve(dir, named), 'index.lock') : undefined;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Every folder under `root`, `root` included. */
function foldersUnder(root: string): string[] {
  const folders = [root];
  for (let index = 0; index < folders.length; index++) {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(folders[index]!, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries)
      if (entry.isDirectory() && !SKIPPED_FOLDER.has(entry.name)) folders.push(path.join(folders[index]!, entry.name));
  }
  return folders;
}

/** One watch per folder under `root`; `resync` brings them up to date with the folders there are now. */
function createFolderWatches(root: string, note: (dir: string, event: string, name: string | undefined) => void, lost: () => void) {
  const watchers = new Map<string, FSWatcher>();
  const unwatch = (dir: string) => {
    watchers.get(dir)?.close();
    watchers.delete(dir);
  };
  const watchFolder = (dir: string) => {
    try {
      const watcher = watch(dir, (event, name) => note(dir, event, name?.toString()));
      // A watched folder removed or renamed away: its watch ends here, and the next batch looks again.
      watcher.on('error', () => {
        unwatch(dir);
        lost();
      });
      watchers.set(dir, watcher);
    } catch {
      // Gone already; the parent's watch reported it.
    }
  };
  return {
    watching: (dir: string) => watchers.has(dir),
    resync() {
      const now = new Set(foldersUnder(root));
      for (const dir of [...watchers.keys()]) if (!now.has(dir)) unwatch(dir);
      for (const dir of now) if (!watchers.has(dir)) watchFolder(dir);
    },
    close() {
      for (const dir of [...watchers.keys()]) unwatch(dir);
    },
  };
}

/** A path under the content folder as the build names it, relative and with `/`. */
const contentPath = (root: string, absolute: string) => path.relative(root, absolute).split(path.sep).join('/');

/** Promises kept once `busy` is false, when `check` is called (or at once when it is false already). */
function createIdle(busy: () => boolean) {
  const waiting: (() => void)[] = [];
  const check = () => {
    if (!busy()) for (const resolve of waiting.splice(0)) resolve();
  };
  return {
    check,
    wait: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        check();
      }),
  };
}

/** Changes gathered for one rebuild. */
interface Batch {
  files: Set<string>;
  /** When its first and its last change were reported (0: none yet). */
  firstAt: number;
  lastAt: number;
  /** When git's lock last held it back (0: it has not); a change under git's lock is a bulk change. */
  lockedAt: number;
}

const newBatch = (): Batch => ({ files: new Set(), firstAt: 0, lastAt: 0, lockedAt: 0 });

/** How long `batch` must still wait before it is handed over (0: not at all). */
function holdBack(batch: Batch, lock: string | undefined, settleMs: number, now: number): number {
  if (lock && existsSync(lock) && now - batch.firstAt < MAX_LOCK_WAIT_MS) {
    // Until git is done, the last change is now: the reports of its last writes may not have been read
    // when it finishes.
    batch.lockedAt = batch.lastAt = now;
    return LOCK_POLL_MS;
  }
  // Reports that come meanwhile extend the quiet time; they do not cut it short. A stream of changes that
  // never stops (or goes on after git's lock) is still built every MAX_WAIT_MS.
  const quiet = batch.lockedAt || batch.files.size > BULK_FILES ? BULK_SETTLE_MS : settleMs;
  const quietLeft = quiet - (now - batch.lastAt);
  return quietLeft > 0 && now - (batch.lockedAt || batch.firstAt) < MAX_WAIT_MS ? quietLeft : 0;
}

export function watchContent(folder: string, options: WatchOptions): ContentWatcher {
  const root = path.resolve(folder);
  const lock = gitIndexLock(root);
  const settleMs = options.settleMs ?? SETTLE_MS;
  let batch = newBatch();
  let folderEvent = false;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const watches = createFolderWatches(root, note, () => {
    folderEvent = true;
    schedule();
  });
  const idle = createIdle(() => timer !== undefined && !closed);
  const flush = () => {
    timer = undefined;
    deliver();
    idle.check();
  };
  const deliver = () => {
    if (closed) return;
    const wait = holdBack(batch, lock, settleMs, performance.now());
    if (wait > 0) {
      timer = setTimeout(flush, wait);
      return;
    }
    if (folderEvent) {
      folderEvent = false;
      watches.resync();
    }
    if (!existsSync(root)) return options.failed(new Error(`${folder} was removed`));
    const { files } = batch;
    batch = newBatch();
    if (files.size) options.changed(files);
  };
  const schedule = () => {
    batch.lastAt = performance.now();
    if (!batch.firstAt) batch.firstAt = batch.lastAt;
    // A timer already set comes soon enough: the batch's quiet time is checked when it fires.
    if (timer === undefined) timer = setTimeout(flush, settleMs);
  };
  function note(dir: string, event: string, name: string | undefined) {
    if (name === undefined || !isEditorFile(name)) {
      const file = contentPath(root, name === undefined ? dir : path.join(dir, name));
      if (name !== undefined && SKIPPED_FOLDER.has(file.split('/')[0]!)) return;
      batch.files.add(file || '.');
      // A name appearing or going may be a folder: the watches are brought up to date before the rebuild.
      if (event === 'rename') folderEvent = true;
      schedule();
    }
  }

  watches.resync();
  if (!watches.watching(root)) throw new Error(`cannot watch ${folder}`);
  return {
    idle: idle.wait,
    close() {
      closed = true;
      idle.check();
      clearTimeout(timer);
      watches.close();
    },
  };
}
