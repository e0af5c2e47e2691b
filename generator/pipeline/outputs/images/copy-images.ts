/** The images published records refer to, copied into the output. */
import { markdownCollections } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { OutputFile } from '../output-file.ts';

/**
 * The images published records refer to (the fields the collections table marks as images), as they are:
 * read one at a time as the emit step asks, each checked to be the file the content scan approved.
 */
export function* copyImages(catalogue: Catalogue, readImage: (sitePath: string) => Uint8Array): Generator<OutputFile> {
  const images = new Set<string>();
  for (const [key, collection] of markdownCollections(catalogue.collections)) {
    for (const [field, reference] of Object.entries(collection.references ?? {})) {
      if (reference !== 'images') continue;
      for (const record of catalogue.records[key]!) if (typeof record[field] === 'string') images.add(record[field]);
    }
  }
  for (const image of [...images].sort()) yield { path: image.slice(1), body: readImage(image) };
}
