/**
 * The OpenAPI `components.schemas`, generated from zod: every schema of schemas/api.ts, the envelopes
 * around them (one per operation) and the error envelopes (one per status). Nothing here is a
 * hand-written JSON Schema, so the document cannot drift from what the generator builds.
 */
import { z } from 'zod';
import * as Api from '../../../schemas/api.ts';
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '../../../shared/errors.ts';
import type { MetaFields, Pagination } from '../../../shared/envelope.ts';
import { MAX_LIMIT, MAX_OFFSET, type CollectionName, type Operation } from '../../../shared/operations.ts';
import { compareText } from '../../../shared/compare-text.ts';

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
    language: z.string().regex(/^[a-z]{2,3}-[A-Z]{2}$/).meta({ description: 'Language tag of the response.', example: 'en-US' }),
  })
  .meta({ description: 'Per-request facts of a success response.' }) satisfies z.ZodType<MetaFields>;

const paginatedMeta = meta.extend({ pagination }) satisfies z.ZodType<MetaFields>;

/** The OpenAPI route documents itself as a plain JSON object: the document, not an envelope. */
const openApiDocument = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) })
  .meta({ description: 'An OpenAPI 3.1 document (this one).' });

/** CONTRACT "Error envelope": `error.parameter` is sent with these codes and only these. */
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
  for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][]) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  return [...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => ({ status, codes }));
}

export const errorSchemaName = (status: number) => `Error${status}`;

const ITEMS: Record<CollectionName, z.ZodType> = {
  services: Api.serviceItem,
  expertise: Api.expertiseItem,
  technology: Api.technologyItem,
  intelligence: Api.articleItem,
};

const RECORDS: Record<CollectionName, z.ZodType> = {
  services: Api.serviceRecord,
  expertise: Api.expertiseRecord,
  technology: Api.technologyRecord,
  intelligence: Api.articleRecord,
};

/** `data` of the operations whose path alone says what they answer. */
const STATIC_DATA: Record<string, z.ZodType> = {
  'services/categories': z.array(Api.termItem),
  'expertise/technologies': z.array(Api.platformItem),
  'expertise/industries': z.array(Api.termItem),
  'technology/categories': z.array(Api.termItem),
  'technology/protocols': z.array(Api.technologyItem),
  'intelligence/topics': z.array(Api.termItem),
  health: Api.healthData,
};

function collectionOf(operation: Operation): CollectionName {
  if (!operation.collection) throw new Error(`OpenAPI: operation ${operation.operationId} (${operation.kind}) names no collection`);
  return operation.collection;
}

/** CONTRACT: `meta.pagination` appears on exactly the operations with `limit` and `offset`. */
export function isPaginated(operation: Operation): boolean {
  const names = operation.params.map((param) => param.name);
  return names.includes('limit') && names.includes('offset');
}

/** The `data` schema of an operation; an operation this cannot place fails the build rather than go undocumented. */
function selectDataSchema(operation: Operation): z.ZodType {
  switch (operation.kind) {
    case 'list':
    case 'latest':
      return z.array(ITEMS[collectionOf(operation)]);
    case 'get':
      return RECORDS[collectionOf(operation)];
    case 'search':
      return z.array(Api.searchResult);
    case 'index':
      return Api.indexData;
    case 'static': {
      const data = STATIC_DATA[operation.path];
      if (!data) throw new Error(`OpenAPI: no data schema for operation "${operation.path}"; add it to STATIC_DATA`);
      return data;
    }
    case 'openapi':
      throw new Error('OpenAPI: the document route answers the document, not an envelope');
  }
}

/** `serviceItem` -> `ServiceItem`. */
const pascalCase = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}`;

/** The schema of an operation's 200 body: `listServices` -> `ListServicesResponse`. */
export const successSchemaName = (operation: Operation) =>
  operation.kind === 'openapi' ? 'OpenApiDocument' : `${pascalCase(operation.operationId)}Response`;

/**
 * Every component schema, as JSON Schema 2020-12 (the dialect of OpenAPI 3.1). Schemas registered here are
 * referenced by name wherever they are used, so records, envelopes and errors each appear once.
 */
export function buildSchemaComponents(operations: readonly Operation[]): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  // Sorted: a module namespace's key order differs between loaders, and the document must not.
  const apiSchemas = Object.entries(Api).sort(([a], [b]) => compareText(a, b));
  for (const [name, schema] of apiSchemas) if (schema instanceof z.ZodType) registry.add(schema, { id: pascalCase(name) });
  registry.add(pagination, { id: 'Pagination' });
  registry.add(meta, { id: 'Meta' });
  registry.add(paginatedMeta, { id: 'PaginatedMeta' });
  registry.add(openApiDocument, { id: 'OpenApiDocument' });
  for (const operation of operations) {
    if (operation.kind === 'openapi') continue;
    const envelope = z
      .object({ success: z.literal(true), data: selectDataSchema(operation), meta: isPaginated(operation) ? paginatedMeta : meta })
      .meta({ description: `Success envelope of ${operation.operationId}.` });
    registry.add(envelope, { id: successSchemaName(operation) });
  }
  registry.add(createErrorEnvelope(Object.keys(ERROR_STATUS) as ErrorCode[], 'optional'), { id: 'ErrorResponse' });
  for (const { status, codes } of listErrorStatuses()) {
    const parameter = codes.every((code) => PARAMETER_CODES.includes(code)) ? 'required' : 'absent';
    registry.add(createErrorEnvelope(codes, parameter), { id: errorSchemaName(status) });
  }
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: schemaRef });
  // Each schema lives inside the document, not as a standalone file: `$schema` and `$id` do not belong.
  return Object.fromEntries(Object.entries(schemas).map(([name, { $schema: _schema, $id: _id, ...schema }]) => [name, schema]));
}
