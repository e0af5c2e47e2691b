/** How names from the collections table, the schemas and content read as labels and as component names. */

/** `services` -> `Services`. */
export const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** A name as a label: `spec_url` -> `Spec url`, `research-report` -> `Research report`, `services` -> `Services`. */
export const humanize = (name: string) => capitalize(name).replace(/[_-]/g, ' ');

/** `NOT_FOUND` -> `NotFound`, `serviceItem` -> `ServiceItem`: OpenAPI component names from codes and schema names. */
export function pascalCase(name: string): string {
  const words = /^[A-Z0-9_]+$/.test(name) ? name.toLowerCase().split('_') : [name];
  return words.map(capitalize).join('');
}
