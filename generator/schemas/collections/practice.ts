/** What services and expertise areas declare alike: their references, search fields and category filter. */
import { TECHNOLOGIES } from '../relations.ts';

export const CATEGORY_FILTER = { param: 'category', fields: ['category'], taxonomies: ['categories'], source: 'categories' } as const;

export const practiceReferences = { category: ['categories'], industries: ['industries'], technologies: TECHNOLOGIES } as const;
export const practiceSearch = { tags: ['tags'], terms: ['category', 'industries'] } as const;
