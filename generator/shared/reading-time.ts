/**
 * Reading time (docs/content.md "Fields every Markdown record has"): `<n> min read` from the body's words at 230 words a minute, at
 * least 1. The front matter's override, the API's description and the generator all use this one rule.
 */

export const WORDS_PER_MINUTE = 230;

/** `<n> min read`, as the feed and the API spell a reading time. */
export const READING_TIME_PATTERN = /^[1-9]\d* min read$/;

/** True for a character that separates words: white space and ASCII control characters. */
const isSpace = (code: number) => code <= 32;
/** True for a letter or digit in any script (not Markdown punctuation such as `#`, `-`, `*`). */
const isWordChar = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code > 127;

/**
 * Words of the prose: fenced code is skipped and a token of Markdown punctuation alone (`-`, `##`) is not a
 * word. One pass over the characters, because the build runs it over every body.
 */
export function countWords(markdown: string): number {
  let words = 0;
  const parts = markdown.split('```');
  for (let part = 0; part < parts.length; part += 2) {
    const text = parts[part]!;
    let inWord = false;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (isSpace(code)) inWord = false;
      else if (!inWord && isWordChar(code)) {
        inWord = true;
        words++;
      }
    }
  }
  return words;
}

/** The estimated reading time of a body, `<n> min read` at WORDS_PER_MINUTE, at least 1. */
export function estimateReadingTime(markdown: string): string {
  return `${Math.max(1, Math.ceil(countWords(markdown) / WORDS_PER_MINUTE))} min read`;
}
