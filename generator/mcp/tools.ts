/**
 * The MCP tools, made from the route table (`_api/operations.json`) and the manifest's filter values, the
 * same facts the API validates its parameters with: each tool is one or more `/v1/` operations, and its
 * input schema is those operations' parameters as JSON Schema, every filter with its allowed values.
 * Arguments are checked here, in plain words that name the argument; the values' own rules (ranges, ids,
 * which filter a collection has) are the API's, whose messages say the same. Runtime-neutral, no zod.
 */
import type { Manifest } from '../shared/manifest.ts';
import { joinWords, type Operation, type Param } from '../shared/operations.ts';

/** What a tool call asks of the API: an operation's path under `/v1/` and its query parameters. */
export interface ApiCall {
  path: string;
  params: Record<string, string | number | undefined>;
}

/** Arguments that do not fit the tool: the message names the argument and says what is allowed. */
export class ToolArgumentError extends Error {}

/** The JSON Schema of one argument: the subset the tools use. */
export interface ArgumentSchema {
  type: 'string' | 'integer';
  description: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

export interface InputSchema {
  type: 'object';
  properties: Record<string, ArgumentSchema>;
  required?: string[];
  additionalProperties: false;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: InputSchema;
  /** Checked arguments to the API call that answers them. */
  toCall(args: Record<string, unknown>): ApiCall;
}

/** One API parameter as an argument schema, with the API's own bounds and allowed values. */
function paramSchema(param: Param, manifest: Manifest): ArgumentSchema {
  switch (param.kind) {
    case 'integer':
      return { type: 'integer', minimum: param.min, maximum: param.max, description: `${param.description} Default ${param.default}.` };
    case 'filter': {
      const values = manifest.filters[param.source] ?? [];
      return { type: 'string', description: param.description, ...(values.length ? { enum: [...values] } : {}) };
    }
    case 'enum':
      return { type: 'string', enum: [...param.values], description: `${param.description} Default ${param.default}.` };
    case 'id':
      return { type: 'string', minLength: 1, maxLength: 128, description: param.description };
    case 'query':
      return { type: 'string', minLength: 1, maxLength: param.maxLength, description: param.description };
  }
}

const schemaOf = (properties: Record<string, ArgumentSchema>, required: string[]): InputSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});

const shapeOf = (params: readonly Param[], manifest: Manifest) =>
  schemaOf(
    Object.fromEntries(params.map((param) => [param.name, paramSchema(param, manifest)])),
    params.filter((param) => 'required' in param && param.required).map((param) => param.name),
  );

const pick = (args: Record<string, unknown>, params: readonly Param[]) =>
  Object.fromEntries(params.map((param) => [param.name, args[param.name] as string | number | undefined]));

/** Why `value` does not fit `schema`, in words; null when it fits. Enumerated values match as the API matches them. */
function argumentProblem(name: string, value: unknown, schema: ArgumentSchema): string | null {
  if (schema.type === 'integer') {
    const range = `a whole number from ${schema.minimum} to ${schema.maximum}`;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return `Argument "${name}" must be ${range}.`;
    if (value < schema.minimum! || value > schema.maximum!) return `Argument "${name}" must be ${range}, not ${value}.`;
    return null;
  }
  if (typeof value !== 'string') return `Argument "${name}" must be text${schema.enum ? ` (one of ${schema.enum.join(', ')})` : ''}.`;
  if (schema.enum && !schema.enum.includes(value.trim().toLowerCase()))
    return `Argument "${name}" must be one of ${schema.enum.join(', ')}.`;
  if (schema.maxLength !== undefined && value.length > schema.maxLength)
    return `Argument "${name}" must be at most ${schema.maxLength} characters.`;
  return null;
}

/** Checks a call's arguments against the tool's schema; throws a ToolArgumentError that names the first bad one. */
export function checkArguments(tool: ToolDefinition, args: unknown): Record<string, unknown> {
  const problem = argumentsProblem(args);
  if (problem) throw new ToolArgumentError(problem);
  const record = (args ?? {}) as Record<string, unknown>;
  const { properties, required = [] } = tool.inputSchema;
  const unknown = Object.keys(record).filter((name) => !Object.hasOwn(properties, name));
  if (unknown.length)
    throw new ToolArgumentError(`Unknown argument "${unknown[0]}"; ${tool.name} takes ${joinWords(Object.keys(properties))}.`);
  for (const name of required)
    if (record[name] === undefined) throw new ToolArgumentError(`Missing argument "${name}": ${properties[name]!.description}`);
  for (const [name, schema] of Object.entries(properties)) {
    const problem = record[name] === undefined ? null : argumentProblem(name, record[name], schema);
    if (problem) throw new ToolArgumentError(problem);
  }
  return record;
}

/** Why a call's arguments are not an object of named values (absent is fine), or null. */
export function argumentsProblem(args: unknown): string | null {
  if (args === undefined || (typeof args === 'object' && args !== null && !Array.isArray(args))) return null;
  const what = Array.isArray(args) ? 'an array' : args === null ? 'null' : `a ${typeof args}`;
  return `The arguments must be an object of named values, such as {"q": "payments"}, not ${what}.`;
}

/** The collections with an operation of `kind`, by their API path, each with that operation. */
function byCollection(operations: readonly Operation[], kind: Operation['kind']): Map<string, Operation> {
  return new Map(
    operations
      .filter((operation) => operation.kind === kind && operation.collection)
      .map((operation) => [operation.collection!, operation]),
  );
}

/** The filters list operations take, by name: every value any collection allows, and which collection has it. */
function filterShape(lists: Map<string, Operation>, manifest: Manifest): Record<string, ArgumentSchema> {
  const filters = new Map<string, { collections: string[]; values: Set<string> }>();
  for (const [collection, operation] of lists) {
    for (const param of operation.params) {
      if (param.kind !== 'filter') continue;
      const filter = filters.get(param.name) ?? { collections: [], values: new Set<string>() };
      filter.collections.push(collection);
      for (const value of manifest.filters[param.source] ?? []) filter.values.add(value);
      filters.set(param.name, filter);
    }
  }
  return Object.fromEntries(
    [...filters].map(([name, { collections, values }]) => [
      name,
      {
        type: 'string',
        description: `Filter by ${name} id (${collections.join(', ')}); the collection's own values are in its error message.`,
        ...(values.size ? { enum: [...values].sort() } : {}),
      } satisfies ArgumentSchema,
    ]),
  );
}

function listTool(lists: Map<string, Operation>, manifest: Manifest): ToolDefinition {
  const paging = lists
    .values()
    .next()
    .value!.params.filter((param) => param.kind === 'integer');
  const filters = filterShape(lists, manifest);
  return {
    name: 'list_records',
    title: 'List records',
    description: 'Records of a collection in the API order, optionally filtered, a page at a time (pagination in the result).',
    inputSchema: schemaOf(
      {
        collection: { type: 'string', enum: [...lists.keys()], description: 'The collection.' },
        ...filters,
        ...shapeOf(paging, manifest).properties,
      },
      ['collection'],
    ),
    toCall: (args) => {
      const operation = lists.get(String(args.collection).trim().toLowerCase())!;
      const own = new Set(operation.params.map((param) => param.name));
      const foreign = Object.keys(filters).filter((name) => args[name] !== undefined && !own.has(name));
      if (foreign.length) {
        const names = operation.params.filter((param) => param.kind === 'filter').map((param) => param.name);
        throw new ToolArgumentError(
          `${operation.collection} has no ${foreign.join(' or ')} filter; its filters: ${names.join(', ') || 'none'}`,
        );
      }
      return { path: operation.path, params: pick(args, operation.params) };
    },
  };
}

/** Every tool, from the build's route table and manifest. */
export function createTools(operations: readonly Operation[], manifest: Manifest): ToolDefinition[] {
  const search = operations.find((operation) => operation.kind === 'search');
  const latest = operations.find((operation) => operation.kind === 'latest');
  const gets = byCollection(operations, 'get');
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
  tools.push({
    name: 'get_record',
    title: 'Get one record',
    description: 'One record of a collection by its id, with its full content (content_html) and related records.',
    inputSchema: schemaOf(
      {
        collection: { type: 'string', enum: [...gets.keys()], description: 'The collection.' },
        id: { type: 'string', minLength: 1, maxLength: 128, description: 'The record id or slug.' },
      },
      ['collection', 'id'],
    ),
    toCall: (args) => ({ path: gets.get(String(args.collection).trim().toLowerCase())!.path, params: { id: args.id as string } }),
  });
  tools.push(listTool(byCollection(operations, 'list'), manifest));
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
