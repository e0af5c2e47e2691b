/** Closed lists of values that the content model fixes, each said once for the front matter and the API. */

/** The three technology categories (docs/content.md: `technology/categories.yaml` holds exactly these). */
export const TECHNOLOGY_CATEGORY_IDS = ['protocols', 'infrastructure', 'agents'] as const;

/** A technology's `status`. */
export const TECHNOLOGY_STATUSES = ['draft', 'stable', 'deprecated'] as const;

/** The resource feed's entry types (spec "Resource feed document": `taxonomy.types`). */
export const RESOURCE_TYPES = ['guide', 'template', 'checklist', 'research-report'] as const;
