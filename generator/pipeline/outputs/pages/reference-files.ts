/**
 * The API reference (`SITE_ADDRESSES.reference`, `/docs/`): the page rendered at build time from the OpenAPI
 * document (reference-page.ts), its examples, styles and "try it" script, and a static copy of the document.
 */
import { fileURLToPath } from 'node:url';
import { API_BASE_PATH } from '../../../shared/policy.ts';
import { SITE_ADDRESSES } from '../../../shared/site-addresses.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { basePathOf, escapeHtml, renderHead } from '../html.ts';
import type { OutputFile } from '../output-file.ts';
import { referenceExamples, renderReferenceBody } from './reference-page.ts';
import type { OpenApi } from './reference-schema.ts';

/** The reference page's own files, beside it: its styles and the "try it" script. */
const REFERENCE_ASSETS = ['reference.css', 'try-it.js'];

function renderReferencePage(catalogue: Pick<Catalogue, 'site' | 'siteUrl'>, api: OpenApi): string {
  const base = basePathOf(catalogue.siteUrl);
  const folder = `${base}/${SITE_ADDRESSES.reference}`;
  const name = catalogue.site.name;
  const head = renderHead({
    language: catalogue.site.language,
    title: `${name} API reference`,
    description: `Every operation of the ${name} API (version ${api.info.version}): parameters, responses, fields and examples, with a form to try each one.`,
    siteUrl: catalogue.siteUrl,
    more: `<link rel="stylesheet" href="${folder}/reference.css">\n<script type="module" src="${folder}/try-it.js"></script>\n`,
  });
  return `${head}<body>
<a class="skip" href="#contents-title">Skip to the operations</a>
<div class="page">
<header><p><a href="${base}/">${escapeHtml(name)}</a></p><h1>${escapeHtml(api.info.title)} reference</h1>
<p>Version ${escapeHtml(api.info.version)}. Base address <code>${escapeHtml(api.servers[0]?.url ?? '')}/</code>. Machine-readable: the <a href="${folder}/openapi.json">OpenAPI 3.1 document</a>.</p></header>
<main>
${renderReferenceBody(api, `${base}${API_BASE_PATH}`)}
</main>
</div>
</body>
</html>
`;
}

/** The reference page with its examples, styles and script, and the static copy of the OpenAPI document. */
export function buildReferenceFiles(catalogue: Pick<Catalogue, 'site' | 'siteUrl'>, openApiJson: string): OutputFile[] {
  const api = JSON.parse(openApiJson) as OpenApi;
  const folder = SITE_ADDRESSES.reference;
  return [
    { path: `${folder}/index.html`, body: renderReferencePage(catalogue, api) },
    { path: `${folder}/examples.json`, body: JSON.stringify(referenceExamples(api)) },
    { path: `${folder}/openapi.json`, body: openApiJson },
    ...REFERENCE_ASSETS.map((name) => ({
      path: `${folder}/${name}`,
      copyFrom: fileURLToPath(new URL(`./assets/${name}`, import.meta.url)),
    })),
  ];
}
