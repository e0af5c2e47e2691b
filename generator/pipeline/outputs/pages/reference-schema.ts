/** The parts of the OpenAPI document the reference page reads, typed as the build writes them. */

export interface Schema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  description?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  examples?: unknown[];
}

export interface Parameter {
  name: string;
  required?: boolean;
  description?: string;
  schema: Schema;
}

export interface Response {
  $ref?: string;
  description?: string;
  content?: Record<string, { schema?: Schema; example?: unknown }>;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  parameters: Parameter[];
  responses: Record<string, Response>;
}

export interface OpenApi {
  info: { title: string; version: string; description?: string };
  servers: { url: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, { get: Operation }>;
  components: { schemas: Record<string, Schema>; responses?: Record<string, Response> };
}

/** A schema with its `$ref` (to `#/components/schemas/...`) followed. */
export function resolveRef(schema: Schema | undefined, api: OpenApi): Schema | undefined {
  let current = schema;
  for (let depth = 0; current?.$ref && depth < 8; depth++) current = api.components.schemas[current.$ref.split('/').pop()!];
  return current;
}
