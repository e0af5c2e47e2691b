/**
 * The Decap CMS configuration (`/admin/config.yml`), generated from the collections table and the zod
 * schemas: one folder collection per Markdown collection (records first), a file collection for
 * `site.yaml`. The taxonomy files are top-level YAML lists, which Decap cannot edit as they are, so they stay
 * hand-edited (README). The backend is a build setting (build-settings.ts); `npm run dev` gives the local one.
 */
import type { z } from 'zod';
import { type CollectionTable, markdownCollections, type Reference } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { humanize } from '../labels.ts';
import { type CmsField, type FieldContext, toField } from './cms-fields.ts';
import { SITE_ADDRESSES } from '../../../shared/site-addresses.ts';
import { LIVE_DIR } from './live-page.ts';

/** Images are served where they are in the content folder (copy-images.ts), so one name serves both. */
const IMAGES = SITE_ADDRESSES.images;

/**
 * Where Decap commits: a Git host backend in production, the local file-system proxy in dev (with the dev
 * server's own address, where "View Live" opens a record's page).
 */
export type CmsBackend =
  | { name: 'git-gateway' | 'github'; repo?: string; branch: string }
  | { name: 'local'; url: string; siteUrl?: string };

interface ConfigContext {
  catalogue: Catalogue;
  collections: CollectionTable;
  /** The content folder as the backend sees it: `content/` in the repository, '' for the local proxy. */
  prefix: string;
}

/** The choices of a reference field: term and record names by id, or the values a site list holds. */
function choicesOf({ catalogue }: ConfigContext) {
  return (reference: Reference) => {
    if (reference === 'images') return [];
    const values =
      typeof reference === 'string'
        ? ((catalogue.site as Record<string, unknown>)[reference.slice('site.'.length)] as string[]).map((value) => [value, value] as const)
        : [...catalogue.names(reference)];
    return values.map(([value, label]) => ({ label: label === value ? label : `${label} (${value})`, value }));
  };
}

/** A reference to one Markdown collection is a relation to its Decap collection (no such field today: they name taxonomies too). */
function relationTo({ collections }: ConfigContext): FieldContext['relationTo'] {
  return (key) => {
    const target = collections[key];
    if (target?.kind !== 'markdown') return undefined;
    return { collection: key, search_fields: [target.fields.title], display_fields: [target.fields.title] };
  };
}

function folderCollection(context: ConfigContext, key: string): Record<string, unknown> {
  const collection = context.catalogue.collection(key);
  const folder = collection.pattern.slice(0, collection.pattern.lastIndexOf('/'));
  const shape = collection.schema.shape as Record<string, z.ZodType>;
  const images = { media_folder: `/${context.prefix}${IMAGES}/${folder}`, public_folder: `/${IMAGES}/${folder}` };
  const fields: CmsField[] = Object.entries(shape).map(([name, schema]) =>
    toField(name, schema, {
      reference: collection.references?.[name],
      choices: choicesOf(context),
      mediaFolder: images,
      relationTo: relationTo(context),
    }),
  );
  return {
    name: key,
    label: humanize(collection.name),
    label_singular: humanize(collection.noun),
    folder: `${context.prefix}${folder}`,
    create: true,
    extension: 'md',
    format: 'frontmatter',
    // The file name is the record's slug (and id unless `id` says otherwise), made from its title.
    slug: '{{slug}}',
    identifier_field: collection.fields.title,
    summary: `{{${collection.fields.title}}}{{draft | ternary(' (draft)', '')}}`,
    // "View Live" and "View Preview" (a deploy preview of the entry's pull request) open the record's page.
    // Pages are at the record's slug, its file name; a resource's page is at its id, which is its file name too
    // unless its front matter gives another.
    // Records the API serves have their page in a fan-out folder Decap cannot compute: the live page does.
    preview_path: collection.api ? `${LIVE_DIR}/?page=${collection.page.path}/{{slug}}` : `${collection.page.path}/{{slug}}/`,
    fields: [...fields, { name: 'body', label: 'Body', widget: 'markdown' }],
  };
}

/** A settings file for the document collection `key` of the table, when the table has it. */
function documentFiles(context: ConfigContext, key: string, label: string): Record<string, unknown>[] {
  const collection = context.collections[key];
  if (collection?.kind !== 'document') return [];
  const shape = collection.schema.shape as Record<string, z.ZodType>;
  const fields = Object.entries(shape).map(([name, schema]) => toField(name, schema, { choices: choicesOf(context) }));
  return [{ name: key, label, file: `${context.prefix}${collection.file}`, fields }];
}

/** The whole configuration, as the object `config.yml` serializes. */
export function createCmsConfig(catalogue: Catalogue, backend: CmsBackend): Record<string, unknown> {
  const context: ConfigContext = { catalogue, collections: catalogue.collections, prefix: backend.name === 'local' ? '' : 'content/' };
  const site = catalogue.collections.site;
  const siteShape = site?.kind === 'document' ? (site.schema.shape as Record<string, z.ZodType>) : {};
  const siteUrl = (backend.name === 'local' && backend.siteUrl) || catalogue.siteUrl;
  return {
    ...(backend.name === 'local'
      ? { backend: { name: 'git-gateway', branch: 'main' }, local_backend: { url: backend.url } }
      : { backend: { name: backend.name, ...(backend.repo ? { repo: backend.repo } : {}), branch: backend.branch } }),
    // Draft, In review, Ready: each entry a branch and pull request, which Netlify builds as a deploy preview.
    // Decap's local proxy saves files only, and Decap falls back to publishing at once there.
    publish_mode: 'editorial_workflow',
    site_url: siteUrl,
    display_url: siteUrl,
    locale: 'en',
    media_folder: `${context.prefix}${IMAGES}`,
    public_folder: `/${IMAGES}`,
    collections: [
      ...markdownCollections(catalogue.collections).map(([key]) => folderCollection(context, key)),
      {
        name: 'settings',
        label: 'Settings',
        files: [
          {
            name: 'site',
            label: 'Site',
            file: `${context.prefix}site.yaml`,
            fields: Object.entries(siteShape).map(([name, schema]) => toField(name, schema, { choices: choicesOf(context) })),
          },
          ...documentFiles(context, 'synonyms', 'Search synonyms'),
        ],
      },
    ],
  };
}
