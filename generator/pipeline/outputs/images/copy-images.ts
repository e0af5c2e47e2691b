/** The images published records refer to, copied into the output. */
import { markdownCollections } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { OutputFile } from '../output-file.ts';

/**
 * The images published records refer to (the fields the collections table marks as images), as they are:
 * read one at a time as the emit step asks, each checked to be the file the content scan approved. Which
 * images those are is a fact of the records (output-tracker.ts `steadyKept`): a steady build takes the previous
 * build's list, where each build walked every record for it.
 */
export function* copyImages(catalogue: Catalogue, readImage: (sitePath: string) => Uint8Array): Generator<OutputFile> {
  for (const image of catalogue.track.steadyKept('images', () => imagesOf(catalogue)))
    yield { path: image.slice(1), body: readImage(image) };
}

/** The site paths of the images the published records refer to, sorted. */
function imagesOf(catalogue: Catalogue): string[] {
  const images = new Set<string>();
  for (const [key, collection] of markdownCollections(catalogue.collections)) {
    for (const [field, reference] of Object.entries(collection.references ?? {})) {
      if (reference !== 'images') continue;
      for (const record of catalogue.records[key]!) if (typeof record[field] === 'string') images.add(record[field]);
    }
  }
  return [...images].sort();
}
