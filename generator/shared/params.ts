/**
 * CONTRACT "Parameters": reads an operation's query parameters in documented order and reports the first
 * wrong one. Shared so the handler and the OpenAPI document describe the same rules.
 */
import { ApiError } from './errors.ts';
import type { Manifest } from './manifest.ts';
import type { Operation, Param } from './operations.ts';

export const ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
export const INTEGER_PATTERN = /^[0-9]+$/;

/** Parsed parameters: integers as numbers, enumerations and filters as canonical lowercase ids. */
export type ParsedParams = Record<string, string | number | undefined>;

const list = (values: readonly string[]) => values.join(', ');

function readOne(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new ApiError('INVALID_PARAMETER', `Parameter "${name}" is given ${values.length} times; give it once.`, { parameter: name });
  // An empty value counts as absent (CONTRACT).
  return values[0] === '' ? undefined : values[0];
}

function parseInteger(param: Extract<Param, { kind: 'integer' }>, raw: string): number {
  const range = `an integer from ${param.min} to ${param.max}`;
  if (!INTEGER_PATTERN.test(raw)) throw new ApiError('INVALID_PARAMETER', `Parameter "${param.name}" must be ${range}, written in plain digits.`, { parameter: param.name });
  const value = Number(raw);
  if (value < param.min || value > param.max) {
    throw new ApiError('INVALID_PARAMETER', `Parameter "${param.name}" must be ${range}; ${raw.length > 24 ? 'the value given' : raw} is out of range.`, { parameter: param.name });
  }
  return value;
}

function parseChoice(name: string, raw: string, allowed: readonly string[]): string | undefined {
  const value = raw.trim().toLowerCase();
  if (value === '') return undefined;
  if (!allowed.includes(value)) {
    throw new ApiError('INVALID_PARAMETER', `Parameter "${name}" must be one of: ${list(allowed)}.`, { parameter: name });
  }
  return value;
}

function parseParam(param: Param, raw: string | undefined, manifest: Manifest): string | number | undefined {
  switch (param.kind) {
    case 'integer':
      return raw === undefined ? param.default : parseInteger(param, raw);
    case 'filter':
      return raw === undefined ? undefined : parseChoice(param.name, raw, manifest.filters[param.source]);
    case 'enum':
      return (raw === undefined ? undefined : parseChoice(param.name, raw, param.values)) ?? param.default;
    case 'id':
      if (raw === undefined) throw new ApiError('MISSING_PARAMETER', 'Parameter "id" is required: a record id or slug.', { parameter: 'id' });
      if (!ID_PATTERN.test(raw)) {
        throw new ApiError('INVALID_PARAMETER', 'Parameter "id" must be 1 to 128 ASCII letters, digits, ".", "_" or "-".', { parameter: 'id' });
      }
      return raw.toLowerCase();
    case 'query': {
      const query = raw?.trim() ?? '';
      if (query === '') throw new ApiError('MISSING_PARAMETER', 'Parameter "q" is required: a natural-language query.', { parameter: 'q' });
      if ([...query].length > param.maxLength) {
        throw new ApiError('INVALID_PARAMETER', `Parameter "q" must be at most ${param.maxLength} characters.`, { parameter: 'q' });
      }
      return query;
    }
  }
}

/** Throws `ApiError` for the first wrong parameter in the operation's documented order. */
export function parseParams(operation: Operation, params: URLSearchParams, manifest: Manifest): ParsedParams {
  const parsed: ParsedParams = {};
  for (const param of operation.params) parsed[param.name] = parseParam(param, readOne(params, param.name), manifest);
  return parsed;
}
