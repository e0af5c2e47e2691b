/**
 * docs/api.md "Parameters": reads an operation's query parameters in documented order and reports the first
 * wrong one. Shared so the handler and the OpenAPI document describe the same rules.
 */
import { apiErrors } from './errors.ts';
import type { Manifest } from './manifest.ts';
import type { Operation, Param } from './operations.ts';

/** docs/api.md: a request's `id` is ASCII letters, digits, `.`, `_` and `-`, at most 128 (content ids are stricter). */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
export const INTEGER_PATTERN = /^[0-9]+$/;

/** Parsed parameters: integers as numbers, enumerations and filters as canonical lowercase ids. */
export type ParsedParams = Record<string, string | number | undefined>;

function readOne(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw apiErrors.repeatedParameter(name, values.length);
  // An empty value counts as absent (docs/api.md).
  return values[0] === '' ? undefined : values[0];
}

function parseInteger(param: Extract<Param, { kind: 'integer' }>, raw: string): number {
  const range = `an integer from ${param.min} to ${param.max}`;
  if (!INTEGER_PATTERN.test(raw)) throw apiErrors.notPlainDigits(param.name, range);
  const value = Number(raw);
  if (value < param.min || value > param.max) {
    throw apiErrors.outOfRange(param.name, range, raw);
  }
  return value;
}

function parseChoice(name: string, raw: string, allowed: readonly string[]): string | undefined {
  const value = raw.trim().toLowerCase();
  if (value === '') return undefined;
  if (!allowed.includes(value)) {
    throw apiErrors.notOneOf(name, allowed);
  }
  return value;
}

function parseParam(param: Param, raw: string | undefined, manifest: Manifest): string | number | undefined {
  switch (param.kind) {
    case 'integer':
      return raw === undefined ? param.default : parseInteger(param, raw);
    case 'filter':
      return raw === undefined ? undefined : parseChoice(param.name, raw, manifest.filters[param.source] ?? []);
    case 'enum':
      return (raw === undefined ? undefined : parseChoice(param.name, raw, param.values)) ?? param.default;
    case 'id':
      if (raw === undefined) throw apiErrors.missingId(param.name);
      if (!REQUEST_ID_PATTERN.test(raw)) {
        throw apiErrors.malformedId(param.name);
      }
      return raw.toLowerCase();
    case 'query': {
      const query = raw?.trim() ?? '';
      if (query === '') throw apiErrors.missingQuery(param.name);
      if ([...query].length > param.maxLength) {
        throw apiErrors.queryTooLong(param.name, param.maxLength);
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
