/** Names in the OpenAPI document. */

/** `NOT_FOUND` -> `NotFound`, `serviceItem` -> `ServiceItem`: component names from codes and schema names. */
export function pascalCase(name: string): string {
  const words = /^[A-Z0-9_]+$/.test(name) ? name.toLowerCase().split('_') : [name];
  return words.map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`).join('');
}
