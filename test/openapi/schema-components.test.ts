/**
 * The OpenAPI document's component schemas (generator/pipeline/outputs/openapi/openapi-schemas.ts) are made from
 * the collections table and the operations alone: a build with the same ones takes the schemas the build before
 * made, where each build converted every schema from zod again, and other operations make them again.
 */
import { describe, expect, it } from 'vitest';
import { buildSchemaComponents } from '../../generator/pipeline/outputs/openapi/openapi-schemas.ts';
import { collections, operations } from '../../generator/schemas/collections.ts';

describe('the component schemas', () => {
  it('are the previous build’s for the same table and operations, and made again for others', () => {
    const first = buildSchemaComponents(operations, collections);
    const again = buildSchemaComponents(
      operations.map((operation) => ({ ...operation })),
      collections,
    );
    expect(again, 'the same operations, as new objects').toBe(first);
    const fewer = buildSchemaComponents(
      operations.filter((operation) => operation.kind !== 'search'),
      collections,
    );
    expect(fewer).not.toBe(first);
    expect(Object.keys(fewer).length).toBeLessThan(Object.keys(first).length);
    expect(buildSchemaComponents(operations, collections)).toEqual(first);
  });
});
