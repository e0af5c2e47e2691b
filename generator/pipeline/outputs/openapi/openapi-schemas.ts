/**
 * The OpenAPI `components.schemas`, generated from zod: every schema of schemas/api.ts, the envelopes
 * around them (one per operation) and the error envelopes (one per status). Nothing here is a
 * hand-written JSON Schema, so the document cannot drift from what the generator builds.
 */
import { z } from 'zod';
import * as Api from '../../../schemas/api.ts';
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '../../../shared/errors.ts';
import type { MetaFields, Pagination } from '../../../shared/envelope.ts';
import { apiCollections, type ApiCollection, type CollectionTable } from '../../../schemas/collections.ts';
import { MAX_LIMIT, MAX_OFFSET, type Operation } from '../../../shared/operations.ts';
import { compareText } from '../../../shared/compare-text.ts';
import { pascalCase } from '../labels.ts';

/** Where a generated schema is referenced from elsewhere in the document. */
export const schemaRef = (name: string) => `#/components/schemas/${name}`;

const pagination = z
  .object({
    total: z.int().min(0).meta({ description: 'Number of matching items.' }),
    limit: z.int().min(1).max(MAX_LIMIT).meta({ description: 'Page size applied.' }),
    offset: z.int().min(0).max(MAX_OFFSET).meta({ description: 'Offset applied.' }),
    has_more: z.boolean().meta({ description: 'True when more items follow this page (`offset + data.length < total`).' }),
  })
  .meta({ description: 'Present on exactly the operations with `limit` and `offset`.' }) satisfies z.ZodType<Pagination>;

const meta = z
  .object({
    timestamp: z.iso.datetime().meta({ description: 'Time of this request, ISO 8601 UTC.' }),
    request_id: z.string().min(1).meta({ description: 'Tracking identifier of this request; also sent as `X-Request-Id`.' }),
    processing_time_ms: z.int().min(0).meta({ description: 'Time the handler spent on this request, in milliseconds.' }),
    language: z
      .string()
      .regex(/^[a-z]{2,3}-[A-Z]{2}$/)
      .meta({ description: 'Language tag of the response.', example: 'en-US' }),
  })
  .meta({ description: 'Per-request facts of a success response.' }) satisfies z.ZodType<MetaFields>;

const paginatedMeta = meta.extend({ pagination }) satisfies z.ZodType<MetaFields>;

/** The OpenAPI route documents itself as a plain JSON object: the document, not an envelope. */
const openApiDocument = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ description: 'An OpenAPI 3.1 document (this one).' });

/** docs/api.md "Errors": `error.parameter` is sent with these codes and only these. */
const PARAMETER_CODES: readonly ErrorCode[] = ['MISSING_PARAMETER', 'INVALID_PARAMETER'];

function createErrorEnvelope(codes: readonly ErrorCode[], parameter: 'required' | 'optional' | 'absent') {
  const fields = {
    code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
    message: z.string().meta({ description: 'What went wrong, for people; never a stack trace or a file path.' }),
    timestamp: z.iso.datetime().meta({ description: 'Time of this request, ISO 8601 UTC.' }),
  };
  const name = z.string().meta({ description: 'The offending query parameter.' });
  const error =
    parameter === 'absent' ? z.object(fields) : z.object({ ...fields, parameter: parameter === 'required' ? name : name.optional() });
  return z.object({ success: z.literal(false), error }).meta({ description: 'The error envelope; it has no `meta`.' }) satisfies z.ZodType<{
    success: false;
    error: ErrorBody;
  }>;
}

/** Statuses in ascending order with their codes, read from the one error catalogue. */
export function listErrorStatuses(): { status: number; codes: ErrorCode[] }[] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][])
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  return [...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => ({ status, codes }));
}

export const errorSchemaName = (status: number) => `Error${status}`;

/** Where an operation's `data` schema comes from: the collections table, and the search result types it makes searchable. */
interface DataSchemas {
  collections: CollectionTable;
  searchResult: z.ZodType;
}

function collectionOf(operation: Operation, collections: CollectionTable): ApiCollection {
  const found = apiCollections(collections).find(([, collection]) => collection.api.path === operation.collection);
  if (!found) throw new Error(`OpenAPI: operation ${operation.operationId} (${operation.kind}) names no collection of the table`);
  return found[1];
}

/** The `data` of a collection's extra route, as the table declares it. */
function routeDataSchema(operation: Operation, collections: CollectionTable): z.ZodType {
  const { api } = collectionOf(operation, collections);
  const route = api.routes?.find((candidate) => `${api.path}/${candidate.path}` === operation.path);
  if (route?.kind === 'subset' || route?.kind === 'latest') return z.array(api.item);
  const taxonomy = route?.kind === 'terms' ? collections[route.taxonomy] : undefined;
  if (taxonomy?.kind !== 'list') throw new Error(`OpenAPI: no data schema for operation "${operation.path}"`);
  return z.array(taxonomy.item);
}

/** docs/api.md: `meta.pagination` appears on exactly the operations with `limit` and `offset`. */
export function isPaginated(operation: Operation): boolean {
  const names = operation.params.map((param) => param.name);
  return names.includes('limit') && names.includes('offset');
}

/** The `data` schema of an operation; an operation this cannot place fails the build rather than go undocumented. */
function selectDataSchema(operation: Operation, { collections, searchResult }: DataSchemas): z.ZodType {
  switch (operation.kind) {
    case 'list':
      return z.array(collectionOf(operation, collections).api.item);
    case 'get':
      return collectionOf(operation, collections).api.record;
    case 'search':
      return z.array(searchResult);
    case 'index':
      return Api.indexData;
    case 'latest':
    case 'static':
      return operation.path === 'health' ? Api.healthData : routeDataSchema(operation, collections);
    case 'openapi':
      throw new Error('OpenAPI: the document route answers the document, not an envelope');
  }
}

/** The schema of an operation's 200 body: `listServices` -> `ListServicesResponse`. */
export const successSchemaName = (operation: Operation) =>
  operation.kind === 'openapi' ? 'OpenApiDocument' : `${pascalCase(operation.operationId)}Response`;

/**
 * The component schemas last made for a collections table, and the operations they were made for: they are a
 * function of those alone (the generator's own schemas), and converting every schema from zod was some 15 ms
 * of each of npm run dev's builds. Read only: the document is serialized as it is.
 */
const made = new WeakMap<CollectionTable, { key: string; schemas: Readonly<Record<string, unknown>> }>();

/**
 * Every component schema, as JSON Schema 2020-12 (the dialect of OpenAPI 3.1). Schemas registered here are
 * referenced by name wherever they are used, so records, envelopes and errors each appear once.
 */
export function buildSchemaComponents(operations: readonly Operation[], collections: CollectionTable): Readonly<Record<string, unknown>> {
  const key = JSON.stringify(operations);
  const known = made.get(collections);
  if (known?.key === key) return known.schemas;
  const schemas = schemaComponents(operations, collections);
  made.set(collections, { key, schemas });
  return schemas;
}

function schemaComponents(operations: readonly Operation[], collections: CollectionTable): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  const searchTypes = apiCollections(collections).flatMap(([, collection]) => (collection.api.search ? [collection.api.path] : []));
  // The result's `type` names the searchable collections, which only the table knows.
  const searchResult = Api.searchResult.extend({ type: z.enum(searchTypes as [string, ...string[]]) });
  // Sorted: a module namespace's key order differs between loaders, and the document must not.
  const apiSchemas = Object.entries(Api).sort(([a], [b]) => compareText(a, b));
  for (const [name, schema] of apiSchemas) {
    if (schema instanceof z.ZodType) registry.add(schema === Api.searchResult ? searchResult : schema, { id: pascalCase(name) });
  }
  // A collection whose API schemas are not in schemas/api.ts (one a test registers) is named after its key.
  for (const [key, { api }] of apiCollections(collections)) {
    if (!registry.has(api.item)) registry.add(api.item, { id: `${pascalCase(key)}Item` });
    if (!registry.has(api.record)) registry.add(api.record, { id: `${pascalCase(key)}Record` });
  }
  registry.add(pagination, { id: 'Pagination' });
  registry.add(meta, { id: 'Meta' });
  registry.add(paginatedMeta, { id: 'PaginatedMeta' });
  registry.add(openApiDocument, { id: 'OpenApiDocument' });
  for (const operation of operations) {
    if (operation.kind === 'openapi') continue;
    const envelope = z
      .object({
        success: z.literal(true),
        data: selectDataSchema(operation, { collections, searchResult }),
        meta: isPaginated(operation) ? paginatedMeta : meta,
      })
      .meta({ description: `Success envelope of ${operation.operationId}.` });
    registry.add(envelope, { id: successSchemaName(operation) });
  }
  for (const { status, codes } of listErrorStatuses()) {
    const parameter = codes.every((code) => PARAMETER_CODES.includes(code)) ? 'required' : 'absent';
    registry.add(createErrorEnvelope(codes, parameter), { id: errorSchemaName(status) });
  }
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: schemaRef });
  // Each schema lives inside the document, not as a standalone file: `$schema` and `$id` do not belong.
  return Object.fromEntries(Object.entries(schemas).map(([name, { $schema: _schema, $id: _id, ...schema }]) => [name, schema]));
}
