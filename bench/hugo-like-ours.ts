/**
 * A Hugo site over the same Markdown that makes what our build makes, as far as Hugo can: the peer the
 * build bench times beside the plain one (`createHugoSite` in editing.ts: one bare template, no lists
 * paged, no taxonomies, feeds, sitemap or data files), so that a reader can tell the work each tool does
 * from the speed it does it at. Per record: a page in a shared layout (head, navigation, the record's tags
 * and topics, and for each of its topics and its category the first three records that share it, as our
 * pages link related records) and a JSON file with its fields and body; per collection, topic and category:
 * list pages of 20 with a pager; the home page, an RSS feed of the latest 20 records with their content, a
 * JSON list of every record and the sitemap. It makes no search index, API list windows, Atom or JSON
 * feeds, OpenAPI document or content manager's files, which our build also makes.
 */
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const COLLECTIONS = ['services', 'expertise', 'technology', 'intelligence', 'resources'];

const CONFIG = `baseURL = 'https://example.test/'
title = 'Agency'
disableKinds = ['robotsTXT']
paginate = 20
rssLimit = 20
[taxonomies]
  topic = 'topics'
  category = 'category'
[outputs]
  home = ['HTML', 'RSS', 'JSON']
  section = ['HTML']
  page = ['HTML', 'JSON']
  taxonomy = ['HTML']
  term = ['HTML']
`;

const LAYOUTS: Record<string, string> = {
  '_default/baseof.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} | {{ site.Title }}</title>
<meta name="description" content="{{ with .Params.summary }}{{ . }}{{ else }}{{ site.Title }}{{ end }}">
<link rel="canonical" href="{{ .Permalink }}">{{ range .AlternativeOutputFormats }}
<link rel="{{ .Rel }}" type="{{ .MediaType.Type }}" href="{{ .Permalink }}">{{ end }}</head>
<body><header><nav>{{ range site.Sections }}<a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ end }}</nav></header>
<main>{{ block "main" . }}{{ end }}</main><footer>{{ site.Title }}</footer></body></html>
`,
  '_default/single.html': `{{ define "main" }}<article><h1>{{ .Title }}</h1>
<p>{{ .Date.Format "2 January 2006" }}{{ with .Params.author }} · {{ . }}{{ end }} · {{ .ReadingTime }} min</p>
<p>{{ .Params.summary }}</p>
<ul>{{ range .Params.tags }}<li>{{ . }}</li>{{ end }}{{ range .GetTerms "topics" }}<li><a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a></li>{{ end }}</ul>
{{ .Content }}</article>
<aside>{{ range (.GetTerms "topics") | append (.GetTerms "category") }}<h2>{{ .LinkTitle }}</h2><ul>{{ range first 3 .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}</aside>{{ end }}
`,
  '_default/single.json': `{{ dict "data" (dict "id" .File.ContentBaseName "title" .Title "summary" .Params.summary "date" (.Date.Format "2006-01-02") "author" .Params.author "tags" .Params.tags "topics" .Params.topics "url" .Permalink "body" .Content) | jsonify }}
`,
  '_default/list.html': `{{ define "main" }}<h1>{{ .Title }}</h1>{{ $pager := .Paginate .Pages }}
<ul>{{ range $pager.Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ .Params.summary }}</li>{{ end }}</ul>
<nav>{{ if $pager.HasPrev }}<a href="{{ $pager.First.URL }}">first</a> <a href="{{ $pager.Prev.URL }}">previous</a>{{ end }}
page {{ $pager.PageNumber }} of {{ $pager.TotalPages }}
{{ if $pager.HasNext }}<a href="{{ $pager.Next.URL }}">next</a> <a href="{{ $pager.Last.URL }}">last</a>{{ end }}</nav>{{ end }}
`,
  '_default/terms.html': `{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Data.Terms.ByCount }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> {{ .Count }}</li>{{ end }}</ul>{{ end }}
`,
  // Each item written as it comes: a list grown by append is copied at every step, quadratic in the records.
  'index.json': `{"data":[{{ range $i, $page := site.RegularPages }}{{ if $i }},{{ end }}{{ dict "title" .Title "summary" .Params.summary "url" .Permalink "date" (.Date.Format "2006-01-02") | jsonify }}{{ end }}]}
`,
};

/** Writes the site into `site` over the Markdown of `content`'s collections. */
export function createHugoSiteLikeOurs(content: string, site: string): void {
  for (const collection of COLLECTIONS) {
    mkdirSync(path.join(site, 'content', collection), { recursive: true });
    for (const name of readdirSync(path.join(content, collection)).filter((file) => file.endsWith('.md')))
      cpSync(path.join(content, collection, name), path.join(site, 'content', collection, name));
  }
  writeFileSync(path.join(site, 'hugo.toml'), CONFIG);
  for (const [file, text] of Object.entries(LAYOUTS)) {
    mkdirSync(path.dirname(path.join(site, 'layouts', file)), { recursive: true });
    writeFileSync(path.join(site, 'layouts', file), text);
  }
}
