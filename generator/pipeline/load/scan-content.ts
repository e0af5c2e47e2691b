/**
 * What may be read at all: the content folder is scanned once, without following links, before any file is
 * parsed. A symbolic link (to a file or a folder) would publish whatever it points to on the build machine,
 * so each is a problem and nothing behind it is read; a file over its size limit is a problem before it is
 * read; an SVG that could run script when opened is a problem before it is published.
 */
import { lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { Problem } from '../problems.ts';

export interface ContentLimits {
  /** Largest Markdown or YAML file, in bytes. */
  textBytes: number;
  /** Largest image, in bytes. */
  imageBytes: number;
}

export interface ContentScan {
  /** Files that may be read: regular files inside the folder, within their limit, reached through no link. */
  readable: Set<string>;
  problems: Problem[];
}

const MB = 1024 * 1024;

/** Limits a real site never meets: a 1 MB Markdown file is a short book; a 10 MB image is a poster. */
export const DEFAULT_LIMITS: ContentLimits = { textBytes: 1024 * 1024, imageBytes: 10 * MB };
const formatSize = (bytes: number) => (bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);
const isImage = (file: string) => file.startsWith('images/');

/** Script in an SVG runs when the image is opened on its own: elements, event handlers, `javascript:` links. */
const SVG_SCRIPT = [
  { pattern: /<script[\s>/]/i, what: 'a <script> element' },
  { pattern: /<[^>]*\son[a-z]+\s*=/i, what: 'an event handler attribute (on...=)' },
  { pattern: /javascript\s*:/i, what: 'a javascript: address' },
  { pattern: /<foreignObject[\s>/]/i, what: 'a <foreignObject> element (HTML inside the image)' },
];

function checkSvg(root: string, file: string): Problem | undefined {
  const text = readFileSync(path.join(root, file), 'utf8');
  const found = SVG_SCRIPT.find(({ pattern }) => pattern.test(text));
  if (!found) return undefined;
  const line = text.slice(0, text.search(found.pattern)).split('\n').length;
  return {
    file,
    line,
    field: '-',
    message: `the SVG holds ${found.what}, which would run on this site when the image is opened; remove it`,
  };
}

/**
 * Every entry under `root`, its stats read without following links, and no folder entered through a link.
 * Synchronous: thousands of small stat calls cost a fraction of what as many promises do.
 */
function listEntries(root: string): { path: string; stats: Stats }[] {
  const entries: { path: string; stats: Stats }[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir)).sort()) {
      const file = dir ? `${dir}/${name}` : name;
      const stats = lstatSync(path.join(root, file));
      entries.push({ path: file, stats });
      if (stats.isDirectory()) visit(file);
    }
  };
  visit('');
  return entries;
}

/** Lists what may be read and what is refused; reads only SVGs (to check them), nothing else. */
export async function scanContent(root: string, limits: ContentLimits): Promise<ContentScan> {
  const entries = listEntries(root);
  const problems: Problem[] = [];
  const links = entries.filter((entry) => entry.stats.isSymbolicLink()).map((entry) => entry.path);
  for (const link of links) {
    problems.push({
      file: link,
      line: 1,
      field: '-',
      message: 'is a symbolic link; content is read only from regular files inside the content folder (copy the file in)',
    });
  }
  const throughLink = (file: string) => links.some((link) => file.startsWith(`${link}/`));
  const readable = new Set<string>();
  for (const entry of entries) {
    if (!entry.stats.isFile() || throughLink(entry.path)) continue;
    const limit = isImage(entry.path) ? limits.imageBytes : limits.textBytes;
    if (entry.stats.size > limit) {
      const setting = isImage(entry.path) ? 'MAX_IMAGE_MB' : 'MAX_TEXT_KB';
      problems.push({
        file: entry.path,
        line: 1,
        field: '-',
        message: `is ${formatSize(entry.stats.size)}, over the limit of ${formatSize(limit)} (${setting})`,
      });
      continue;
    }
    const svgProblem = entry.path.toLowerCase().endsWith('.svg') && isImage(entry.path) ? checkSvg(root, entry.path) : undefined;
    if (svgProblem) problems.push(svgProblem);
    else readable.add(entry.path);
  }
  return { readable, problems };
}
