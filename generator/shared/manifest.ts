/** The manifest the generator writes and the handler reads: routes' filter values and totals. */

export interface Manifest {
  api_version: string;
  language: string;
  site_url: string;
  /** ISO 8601 UTC time of the build (SOURCE_DATE_EPOCH when set). */
  built_at: string;
  /** Allowed values of each filter, lowercase ids in display order. */
  filters: Record<string, string[]>;
  /** Matching items per list route and filter key (see `filterKey`); a missing key means 0. */
  totals: Record<string, Record<string, number>>;
  /** Documents in the search index. */
  search_documents: number;
}
