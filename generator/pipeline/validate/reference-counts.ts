/**
 * Whether the checks across collections (check-references.ts) would find anything, kept up to date record by
 * record between steady builds: how many records claim each id and slug, how many records of the collections
 * a reference may name hold each id, and how many references name each id. A record added or removed moves
 * its own counts only, so a removed or renamed id is seen without a walk of the records that name it. The
 * counts say only whether there is a problem; what it is, with its file and line, is check-references.ts's.
 */
import type { CollectionTable, Reference } from '../../schemas/collections.ts';
import type { Checked } from './checked.ts';

/** The names one reference field may take, and how many references name each. */
interface Space {
  /** References by the name they give (strings only: another value is its schema's problem). */
  refs: Map<unknown, number>;
  /** For references to collections: how many of their records have each id. */
  ids: Map<unknown, number>;
  /** For images and site lists: the names there are, set whole. */
  names: ReadonlySet<unknown> | undefined;
  /** Names referenced that name nothing. */
  missing: number;
}

export interface ReferenceCounts {
  add(key: string, record: Checked): void;
  remove(key: string, record: Checked): void;
  /** The content's images (site paths), when they are not the ones set before. */
  setImages(images: ReadonlySet<string>): void;
  /** The settings document's value, when it is not the one set before: its lists are references' names. */
  setSite(site: Record<string, unknown>): void;
  /** Whether a list that must hold exactly some ids misses one (check-references.ts's checkExactIds). */
  setInexact(key: string, inexact: boolean): void;
  /** No id or slug claimed twice, no reference naming nothing, no list missing an id it must hold. */
  clean(): boolean;
}

const spaceKey = (reference: Reference) => (typeof reference === 'string' ? reference : reference.join('\n'));

const itemsOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/** Moves `name`'s count in `table` by `step`; its count before. */
function move(table: Map<unknown, number>, name: unknown, step: 1 | -1): number {
  const before = table.get(name) ?? 0;
  if (before + step === 0) table.delete(name);
  else table.set(name, before + step);
  return before;
}

const knows = (space: Space, name: unknown) => (space.names ? space.names.has(name) : space.ids.has(name));

/** A record of a collection a reference may name, with `id`, added (1) or removed (-1). */
function hold(space: Space, id: unknown, step: 1 | -1): void {
  const before = move(space.ids, id, step);
  if (!space.refs.has(id)) return;
  if (before === 0) space.missing--;
  if (before + step === 0) space.missing++;
}

/** A reference to `name` added (1) or removed (-1). */
function refer(space: Space, name: unknown, step: 1 | -1): void {
  const before = move(space.refs, name, step);
  if ((before === 0 || before + step === 0) && !knows(space, name)) space.missing += step;
}

function setNames(space: Space | undefined, names: ReadonlySet<unknown>): void {
  if (!space) return;
  space.names = names;
  space.missing = 0;
  for (const name of space.refs.keys()) if (!names.has(name)) space.missing++;
}

/**
 * One space per distinct reference; each Markdown collection's reference fields with their space, and each
 * collection's spaces its ids are names in.
 */
function spacesOf(collections: CollectionTable) {
  const spaces = new Map<string, Space>();
  const fields = new Map<string, [string, Space][]>();
  const feeds = new Map<string, Space[]>();
  for (const [key, collection] of Object.entries(collections)) {
    if (collection.kind !== 'markdown') continue;
    for (const [field, reference] of Object.entries(collection.references ?? {})) {
      let space = spaces.get(spaceKey(reference));
      if (!space) {
        space = { refs: new Map(), ids: new Map(), names: typeof reference === 'string' ? new Set() : undefined, missing: 0 };
        spaces.set(spaceKey(reference), space);
        if (typeof reference !== 'string') for (const target of reference) feeds.set(target, [...(feeds.get(target) ?? []), space]);
      }
      fields.set(key, [...(fields.get(key) ?? []), [field, space]]);
    }
  }
  return { spaces, fields, feeds };
}

export function createReferenceCounts(collections: CollectionTable): ReferenceCounts {
  const { spaces, fields, feeds } = spacesOf(collections);
  const claims = new Map(Object.keys(collections).map((key) => [key, new Map<unknown, number>()]));
  /** Names claimed by two records or more. */
  let clashes = 0;
  const inexact = new Set<string>();
  const claim = (key: string, name: unknown, step: 1 | -1) => {
    const before = move(claims.get(key)!, name, step);
    // One record never claims a name twice (its slug only when it is not its id): two claims are two records.
    if (before === 1 && step === 1) clashes++;
    if (before === 2 && step === -1) clashes--;
  };
  const count = (key: string, record: Checked, step: 1 | -1) => {
    const collection = collections[key]!;
    if (collection.kind === 'document') return;
    const { value } = record;
    claim(key, value.id, step);
    if (collection.kind === 'markdown' && value.slug !== value.id) claim(key, value.slug, step);
    for (const space of feeds.get(key) ?? []) hold(space, value.id, step);
    for (const [field, space] of fields.get(key) ?? []) {
      for (const item of itemsOf(value[field])) if (typeof item === 'string') refer(space, item, step);
    }
  };
  return {
    add: (key, record) => count(key, record, 1),
    remove: (key, record) => count(key, record, -1),
    setImages: (images) => setNames(spaces.get('images'), images),
    setSite(site) {
      for (const [key, space] of spaces) {
        if (key.startsWith('site.')) setNames(space, new Set(site[key.slice('site.'.length)] as string[]));
      }
    },
    setInexact(key, missing) {
      if (missing) inexact.add(key);
      else inexact.delete(key);
    },
    clean: () => clashes === 0 && inexact.size === 0 && [...spaces.values()].every((space) => space.missing === 0),
  };
}
