/**
 * The only style blocks pages carry inline. The pages write them and the `_headers` file allows exactly
 * these texts by hash (each page's Content-Security-Policy), so both take them from here.
 */

/** The front page's only styles. */
export const HOME_STYLE = `
body { font: 1.0625rem/1.6 system-ui, sans-serif; color: #1a1a1a; background: #fff; max-width: 42rem; margin: 0 auto; padding: 2rem 1.25rem; }
a { color: #0645ad; } a:focus-visible { outline: 3px solid #0645ad; outline-offset: 2px; }
code { font-size: 0.95em; background: #f2f2f2; padding: 0.1em 0.3em; border-radius: 3px; overflow-wrap: anywhere; }
li { margin: 0.4rem 0; }
`;

/** Without JavaScript the hub's controls could not filter, so they are hidden. */
export const NOSCRIPT_STYLE = '.filters{display:none}';
