/**
 * Imported first by every benchmark that builds: they time the site without the semantic step unless
 * SEMANTIC_SEARCH says otherwise (embedding every record would take hours at 100,000 articles and would be
 * timed as part of the build); bench/semantic.ts times that step on its own.
 */
process.env.SEMANTIC_SEARCH ??= 'off';
