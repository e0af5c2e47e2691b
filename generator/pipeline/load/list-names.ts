/**
 * A folder's names in one fixed order, listed once: npm run build's nothing-changed check hashes the content
 * in this order, and the build's scan (scan-content.ts) takes the same listing rather than list the folder
 * again. Kept apart from the scan so the check loads nothing else.
 */
import { type Dirent, readdirSync } from 'node:fs';
import path from 'node:path';

/** A name under a folder, as its listing gave it (path relative, with `/`), before any stat. */
export interface ListedName {
  path: string;
  /** The listing's own type of the entry (a link is a link, not what it points to). */
  dirent: Dirent;
}

/** The names under a folder in listEntries' order, and the folder they were listed from. */
export interface ContentNames {
  root: string;
  names: ListedName[];
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Every name under `root`, each folder's names sorted, a folder before what it holds, no folder entered
 * through a link (the listing's own types say which names are folders). At 100,000 files a listing took
 * about a second of a one-article edit on a loaded machine, and the check and the scan each made one.
 */
export function listNames(root: string): ContentNames {
  const names: ListedName[] = [];
  const visit = (dir: string) => {
    for (const dirent of readdirSync(path.join(root, dir), { withFileTypes: true }).sort(byName)) {
      const file = dir ? `${dir}/${dirent.name}` : dirent.name;
      names.push({ path: file, dirent });
      if (dirent.isDirectory()) visit(file);
    }
  };
  visit('');
  return { root: path.resolve(root), names };
}
