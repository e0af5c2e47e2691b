/**
 * `/admin/`: Decap CMS from its npm package (the prebuilt bundle and the chunks it loads, copied as they are;
 * nothing is loaded from another site) and its generated `config.yml`.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import jsYaml from 'js-yaml';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { precompressedCopies } from '../deploy/precompress.ts';
import type { OutputFile } from '../output-file.ts';
import { escapeHtml } from '../render-markdown.ts';
import { type CmsBackend, createCmsConfig } from './cms-config.ts';

export const ADMIN_DIR = 'admin';

/** The bundle, its licence and the lazily loaded chunks and WebAssembly it asks for next to itself. */
function bundleFiles(): OutputFile[] {
  const dist = path.join(path.dirname(createRequire(import.meta.url).resolve('decap-cms/package.json')), 'dist');
  return readdirSync(dist)
    .filter((name) => /^(?:\d+\.)?decap-cms\.js(?:\.LICENSE\.txt)?$|\.wasm$/.test(name))
    .sort()
    .map((name) => ({ path: `${ADMIN_DIR}/${name}`, copyFrom: path.join(dist, name) }));
}

function renderAdminPage(catalogue: Catalogue): string {
  return `<!doctype html>
<html lang="${escapeHtml(catalogue.site.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>Content manager | ${escapeHtml(catalogue.site.name)}</title>
<link href="config.yml" type="text/yaml" rel="cms-config-url">
</head>
<body>
<script src="decap-cms.js"></script>
</body>
</html>
`;
}

/** The admin page, its configuration for `backend`, and the CMS itself (its largest files also compressed). */
export function buildCmsFiles(catalogue: Catalogue, backend: CmsBackend): OutputFile[] {
  const bundle = bundleFiles();
  const config = jsYaml.dump(createCmsConfig(catalogue, backend), { lineWidth: -1, noRefs: true, sortKeys: false });
  return [
    { path: `${ADMIN_DIR}/index.html`, body: renderAdminPage(catalogue) },
    { path: `${ADMIN_DIR}/config.yml`, body: `# Generated from the content schemas by the build; do not edit.\n${config}` },
    ...bundle,
    ...precompressedCopies(bundle),
  ];
}
