/**
 * The MCP tools, made from the route table (`_api/operations.json`) and the manifest's filter values, the
 * same facts the API validates its parameters with: each tool is one or more `/v1/` operations, and its
 * input schema is those operations' parameters as zod types. Runtime-neutral.
 */
import { z } from 'zod';
import type { Manifest } from '../shared/manifest.ts';
import type { Operation, Param } from '../shared/operations.ts';
import { REQUEST_ID_PATTERN } from '../shared/params.ts';

/** What a tool call asks of the API: an operation's path under `/v1/` and its query parameters. */
export interface ApiCall {
  path: string;
  params: Record<string, string | number | undefined>;
}

/** Arguments that fit the schema but not each other (a filter the chosen collection does not have). */
export class ToolArgumentError extends Error {}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodRawShape;
  toCall(args: Record<string, unknown>): ApiCall;
}

/** One API parameter as a zod type, with the API's own bounds and allowed values. */
function paramSchema(param: Param, manifest: Manifest): z.ZodType {
  switch (param.kind) {
    case 'integer':
      return z.number().int().min(param.min).max(param.max).optional().describe(`${param.description} Default ${param.default}.`);
    case 'filter': {
      const values = manifest.filters[param.source] ?? [];
      return (values.length ? z.enum(values as [string, ...string[]]) : z.string()).optional().describe(param.description);
    }
    case 'enum':
      return z
        .enum(param.values as [string, ...string[]])
        .optional()
        .describe(`${param.description} Default ${param.default}.`);
    case 'id':
      return z.string().regex(REQUEST_ID_PATTERN).describe(param.description);
    case 'query':
      return z.string().min(1).max(param.maxLength).describe(param.description);
  }
}

const shapeOf = (params: readonly Param[], manifest: Manifest): z.ZodRawShape =>
  Object.fromEntries(params.map((param) => [param.name, paramSchema(param, manifest)]));

const pick = (args: Record<string, unknown>, params: readonly Param[]) =>
  Object.fromEntries(params.map((param) => [param.name, args[param.name] as string | number | undefined]));

/** The collections with an operation of `kind`, by their API path, each with that operation. */
function byCollection(operations: readonly Operation[], kind: Operation['kind']): Map<string, Operation> {
  return new Map(
    operations
      .filter((operation) => operation.kind === kind && operation.collection)
      .map((operation) => [operation.collection!, operation]),
  );
}

/** The filters list operations take, by name, each described with the collections that have it. */
function filterShape(lists: Map<string, Operation>): z.ZodRawShape {
  const filters = new Map<string, string[]>();
  for (const [collection, operation] of lists) {
    for (const param of operation.params)
      if (param.kind === 'filter') filters.set(param.name, [...(filters.get(param.name) ?? []), collection]);
  }
  return Object.fromEntries(
    [...filters].map(([name, collections]) => [
      name,
      z
        .string()
        .optional()
        .describe(`Filter by ${name} id (${collections.join(', ')}).`),
    ]),
  );
}

/** Every tool, from the build's route table and manifest. */
export function createTools(operations: readonly Operation[], manifest: Manifest): ToolDefinition[] {
  const search = operations.find((operation) => operation.kind === 'search');
  const latest = operations.find((operation) => operation.kind === 'latest');
  const gets = byCollection(operations, 'get');
  const lists = byCollection(operations, 'list');
  const tools: ToolDefinition[] = [];
  if (search) {
    tools.push({
      name: 'search',
      title: 'Search the catalogue',
      description: `${search.summary}. Natural language; ranked results with type, id, title, summary, url and score.`,
      inputSchema: shapeOf(search.params, manifest),
      toCall: (args) => ({ path: search.path, params: pick(args, search.params) }),
    });
  }
  const collections = (map: Map<string, Operation>) => z.enum([...map.keys()] as [string, ...string[]]);
  tools.push({
    name: 'get_record',
    title: 'Get one record',
    description: 'One record of a collection by its id, with its full content (content_html) and related records.',
    inputSchema: {
      collection: collections(gets).describe('The collection.'),
      id: z.string().regex(REQUEST_ID_PATTERN).describe('The record id or slug.'),
    },
    toCall: (args) => ({ path: gets.get(String(args.collection))!.path, params: { id: args.id as string } }),
  });
  const paging = lists
    .values()
    .next()
    .value!.params.filter((param) => param.kind === 'integer');
  const filters = filterShape(lists);
  tools.push({
    name: 'list_records',
    title: 'List records',
    description: 'Records of a collection in the API order, optionally filtered, a page at a time (pagination in the result).',
    inputSchema: { collection: collections(lists).describe('The collection.'), ...filters, ...shapeOf(paging, manifest) },
    toCall: (args) => {
      const operation = lists.get(String(args.collection))!;
      const own = new Set(operation.params.map((param) => param.name));
      const foreign = Object.keys(filters).filter((name) => args[name] !== undefined && !own.has(name));
      if (foreign.length) {
        const filters = operation.params.filter((param) => param.kind === 'filter').map((param) => param.name);
        throw new ToolArgumentError(
          `${String(args.collection)} has no ${foreign.join(' or ')} filter; its filters: ${filters.join(', ') || 'none'}`,
        );
      }
      return { path: operation.path, params: pick(args, operation.params) };
    },
  });
  if (latest) {
    tools.push({
      name: 'latest_articles',
      title: 'Latest articles',
      description: `${latest.summary}, newest first.`,
      inputSchema: shapeOf(latest.params, manifest),
      toCall: (args) => ({ path: latest.path, params: pick(args, latest.params) }),
    });
  }
  return tools;
}
