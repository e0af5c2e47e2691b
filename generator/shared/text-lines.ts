/**
 * The line of `text` that holds the character at `offset`, counting from `firstLine` (the line `text` starts on
 * in its file): one more for each line break before `offset`. An offset before the text (-1, for text not found)
 * is on the first line. Linear in `offset`, as every position a problem names is counted once.
 */
export function lineAt(text: string, offset: number, firstLine = 1): number {
  let line = firstLine;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}
