/**
 * `/docs/`: the API reference, rendered to HTML at build time from the OpenAPI document itself, so it shows
 * exactly what the document says. Each operation has a "try it" form that `try-it.js` (a few kilobytes)
 * sends to the API on the page's own origin, so it works on any address the site is served from. Chosen
 * over Swagger UI by measurement: a 1.7 MB script scored 31 for mobile performance, this page scores 100.
 */
import { escapeHtml } from '../html.ts';
import { type Operation, type OpenApi, type Parameter, type Response, type Schema, resolveRef } from './reference-schema.ts';

/** `code` spans and paragraphs, the only Markdown the document's descriptions use. */
function prose(text: string | undefined): string {
  if (!text) return '';
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`)
    .join('\n');
}

const inline = (text: string | undefined) => escapeHtml(text ?? '').replace(/`([^`]+)`/g, '<code>$1</code>');

function typeOf(schema: Schema | undefined, api: OpenApi): string {
  const resolved = resolveRef(schema, api);
  if (!resolved) return '';
  if (schema?.$ref) return schema.$ref.split('/').pop()!;
  if (resolved.type === 'array') return `array of ${typeOf(resolved.items, api)}`;
  if (resolved.const !== undefined) return JSON.stringify(resolved.const);
  return Array.isArray(resolved.type) ? resolved.type.join(' or ') : (resolved.type ?? 'any');
}

/** What a parameter accepts, in words: its range, default and example values. */
function accepts(schema: Schema): string {
  const parts: string[] = [];
  if (schema.minimum !== undefined && schema.maximum !== undefined) parts.push(`${schema.minimum} to ${schema.maximum}`);
  if (schema.maxLength !== undefined) parts.push(`${schema.minLength ?? 0} to ${schema.maxLength} characters`);
  if (schema.default !== undefined) parts.push(`default ${schema.default}`);
  if (schema.examples?.length)
    parts.push(`one of ${schema.examples.map((value) => `<code>${escapeHtml(String(value))}</code>`).join(', ')}`);
  return parts.join('; ');
}

function parameterRows(parameters: Parameter[]): string {
  if (!parameters.length) return '<p>No parameters.</p>';
  const rows = parameters.map(
    (parameter) =>
      `<tr><th scope="row"><code>${escapeHtml(parameter.name)}</code>${parameter.required ? ' <strong>required</strong>' : ''}</th>` +
      `<td>${escapeHtml(String(parameter.schema.type ?? 'string'))}</td><td>${inline(parameter.description)} ${accepts(parameter.schema)}</td></tr>`,
  );
  return `<table><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Meaning</th></tr></thead>\n<tbody>${rows.join('\n')}</tbody></table>`;
}

/** The rows of the fields table of the success envelope's `data` (or of its items), one level deep, and what they describe. */
function dataFields(operation: Operation, api: OpenApi): { what: string; rows: string[] } {
  const envelope = resolveRef(operation.responses['200']?.content?.['application/json']?.schema, api);
  const data = resolveRef(envelope?.properties?.data, api);
  const shape = data?.type === 'array' ? resolveRef(data.items, api) : data;
  const rows = Object.entries(shape?.properties ?? {}).map(
    ([name, schema]) =>
      `<tr><th scope="row"><code>${escapeHtml(name)}</code></th><td>${escapeHtml(typeOf(schema, api))}</td><td>${inline(resolveRef(schema, api)?.description)}</td></tr>`,
  );
  return { what: data?.type === 'array' ? 'each item of <code>data</code>' : '<code>data</code>', rows };
}

/**
 * The fields table of an operation: the rows a table shown earlier already has are said by a link to it
 * (a record's fields are its list item's and a few more), so the page does not repeat them.
 */
function fieldsTable(operation: Operation, api: OpenApi, said: Said): string {
  const { what, rows } = dataFields(operation, api);
  if (!rows.length) return '';
  const earlier = said.fields
    .filter((shown) => shown.rows.size <= rows.length && [...shown.rows].every((row) => rows.includes(row)))
    .sort((a, b) => b.rows.size - a.rows.size)[0];
  said.fields.push({ rows: new Set(rows), operation });
  const link = earlier && `<a href="#${escapeHtml(earlier.operation.operationId)}">${escapeHtml(earlier.operation.summary)}</a>`;
  if (earlier && earlier.rows.size === rows.length) return `<p>The fields of ${what} are those of ${link}.</p>`;
  const own = earlier ? rows.filter((row) => !earlier.rows.has(row)) : rows;
  // The link is outside the summary: a link inside the summary's button is not reachable on its own.
  const also = earlier ? `<p>Those of ${link}, and:</p>\n` : '';
  return `<details><summary>Fields of ${what}</summary>\n${also}<table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Meaning</th></tr></thead>\n<tbody>${own.join('\n')}</tbody></table></details>`;
}

/** What the page says once rather than in every operation: the responses every operation has, the fields tables shown. */
interface Said {
  /** Statuses every operation answers with the same description, listed once under COMMON_RESPONSES. */
  common: ReadonlySet<string>;
  /** Each fields table shown so far (its rows), with the operation it is under. */
  fields: { rows: ReadonlySet<string>; operation: Operation }[];
}

const COMMON_RESPONSES = 'common-responses';

const responseDescription = (response: Response, api: OpenApi) =>
  (response.$ref ? api.components.responses?.[response.$ref.split('/').pop()!] : response)?.description;

const responseItem = (status: string, description: string | undefined) =>
  `<li><strong>${escapeHtml(status)}</strong>: ${inline(description)}</li>`;

/** The statuses every operation answers with the same description, in the first operation's order. */
function commonResponses(api: OpenApi, operations: readonly Operation[]): [string, string | undefined][] {
  const [first, ...rest] = operations;
  if (!first) return [];
  return Object.entries(first.responses)
    .map(([status, response]) => [status, responseDescription(response, api)] as [string, string | undefined])
    .filter(
      ([status, description]) =>
        status !== '200' &&
        rest.every((operation) => operation.responses[status] && responseDescription(operation.responses[status], api) === description),
    );
}

/**
 * An operation's own responses, its fields table (or a link to the operation that shows the same one) and
 * its example response, which the page loads from `examples.json` when it is opened: the examples are
 * larger than the rest of the page together.
 */
function responses(operation: Operation, api: OpenApi, said: Said): string {
  const items = Object.entries(operation.responses)
    .filter(([status]) => !said.common.has(status))
    .map(([status, response]) => responseItem(status, responseDescription(response, api)));
  if (said.common.size) items.push(`<li>and the <a href="#${COMMON_RESPONSES}">responses of every operation</a></li>`);
  const example = operation.responses['200']?.content?.['application/json']?.example;
  const shown =
    example === undefined
      ? ''
      : `<details class="example" data-operation="${escapeHtml(operation.operationId)}"><summary>Example response</summary><pre><code><a href="examples.json">examples.json</a></code></pre></details>`;
  return `<ul>${items.join('\n')}</ul>\n${fieldsTable(operation, api, said)}\n${shown}`;
}

/** Each operation's example response by operation id: `docs/examples.json`, which the page loads when one is opened. */
export function referenceExamples(api: OpenApi): Record<string, unknown> {
  const examples: Record<string, unknown> = {};
  for (const item of Object.values(api.paths)) {
    const example = item.get.responses['200']?.content?.['application/json']?.example;
    if (example !== undefined) examples[item.get.operationId] = example;
  }
  return examples;
}

function field(id: string, parameter: Parameter): string {
  const schema = parameter.schema;
  const list = schema.examples?.length ? ` list="${id}-values"` : '';
  const values = schema.examples?.length
    ? `<datalist id="${id}-values">${schema.examples.map((value) => `<option value="${escapeHtml(String(value))}">`).join('')}</datalist>`
    : '';
  const numeric = schema.type === 'integer' ? ' inputmode="numeric"' : '';
  const placeholder = schema.default !== undefined ? ` placeholder="${escapeHtml(String(schema.default))}"` : '';
  // The input inside its label: labelled without an id to point at.
  return `<p><label>${escapeHtml(parameter.name)}${parameter.required ? ' (required)' : ''}
<input name="${escapeHtml(parameter.name)}" autocomplete="off"${numeric}${list}${placeholder}${parameter.required ? ' required' : ''}></label>${values}</p>`;
}

function tryIt(id: string, path: string, operation: Operation, basePath: string): string {
  const fields = operation.parameters.map((parameter) => field(`${id}-${parameter.name}`, parameter)).join('\n');
  return `<form class="try" data-path="${escapeHtml(basePath + path)}" aria-label="Try ${escapeHtml(operation.summary)}">
${fields}
<p><button type="submit">Send <code>GET ${escapeHtml(basePath + path)}</code></button></p>
<div class="result" aria-live="polite"></div>
</form>`;
}

function operationSection(path: string, operation: Operation, api: OpenApi, basePath: string, said: Said): string {
  const id = escapeHtml(operation.operationId);
  return `<section id="${id}" aria-labelledby="${id}-title">
<h3 id="${id}-title">${escapeHtml(operation.summary)}</h3>
<p class="endpoint"><code>GET ${escapeHtml(basePath + path)}</code></p>
${prose(operation.description)}
<h4>Parameters</h4>
${parameterRows(operation.parameters)}
<h4>Responses</h4>
${responses(operation, api, said)}
<h4>Try it</h4>
${tryIt(id, path, operation, basePath)}
</section>`;
}

/** Operations by tag, in the document's order of tags and paths. */
export function operationsByTag(api: OpenApi): { name: string; description?: string; operations: [string, Operation][] }[] {
  return api.tags.map((tag) => ({
    ...tag,
    operations: Object.entries(api.paths)
      .filter(([, item]) => item.get.tags?.includes(tag.name))
      .map(([path, item]) => [path, item.get] as [string, Operation]),
  }));
}

/** The page's `<main>`: the introduction, then a section per tag with one per operation. */
export function renderReferenceBody(api: OpenApi, basePath: string): string {
  const groups = operationsByTag(api);
  const contents = groups
    .map(
      (group) =>
        `<li><a href="#tag-${escapeHtml(group.name.toLowerCase())}">${escapeHtml(group.name)}</a><ul>${group.operations
          .map(([, operation]) => `<li><a href="#${escapeHtml(operation.operationId)}">${escapeHtml(operation.summary)}</a></li>`)
          .join('')}</ul></li>`,
    )
    .join('\n');
  const common = commonResponses(
    api,
    groups.flatMap((group) => group.operations.map(([, operation]) => operation)),
  );
  const said: Said = { common: new Set(common.map(([status]) => status)), fields: [] };
  const commonSection = common.length
    ? `<section aria-labelledby="${COMMON_RESPONSES}"><h2 id="${COMMON_RESPONSES}">Responses of every operation</h2>
<ul>${common.map(([status, description]) => responseItem(status, description)).join('\n')}</ul></section>`
    : '';
  const sections = groups
    .map(
      (group) => `<section aria-labelledby="tag-${escapeHtml(group.name.toLowerCase())}">
<h2 id="tag-${escapeHtml(group.name.toLowerCase())}">${escapeHtml(group.name)}</h2>
${prose(group.description)}
${group.operations.map(([path, operation]) => operationSection(path, operation, api, basePath, said)).join('\n')}
</section>`,
    )
    .join('\n');
  return `${prose(api.info.description)}
<nav aria-labelledby="contents-title"><h2 id="contents-title">Operations</h2><ul>${contents}</ul></nav>
${commonSection}
${sections}`;
}
