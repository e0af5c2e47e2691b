/**
 * The English stop words: the `stopword` package's English list (test/search/stop-words.test.ts checks that
 * they are the same), held here because that package's entry module loads all of its 62 languages, about
 * 10 ms of a fresh Deno isolate's CPU before its first search; the English list alone loads in well under
 * one. Runtime-neutral.
 */
export const ENGLISH_STOP_WORDS: readonly string[] = [
  ...['about', 'after', 'all', 'also', 'am', 'an', 'and', 'another', 'any', 'are', 'as', 'at', 'be', 'because', 'been'],
  ...['before', 'being', 'between', 'both', 'but', 'by', 'came', 'can', 'come', 'could', 'did', 'do', 'each', 'for'],
  ...['from', 'get', 'got', 'has', 'had', 'he', 'have', 'her', 'here', 'him', 'himself', 'his', 'how', 'if', 'in'],
  ...['into', 'is', 'it', 'like', 'make', 'many', 'me', 'might', 'more', 'most', 'much', 'must', 'my', 'never', 'now'],
  ...['of', 'on', 'only', 'or', 'other', 'our', 'out', 'over', 'said', 'same', 'should', 'since', 'some', 'still'],
  ...['such', 'take', 'than', 'that', 'the', 'their', 'them', 'then', 'there', 'these', 'they', 'this', 'those'],
  ...['through', 'to', 'too', 'under', 'up', 'very', 'was', 'way', 'we', 'well', 'were', 'what', 'where', 'which'],
  ...['while', 'who', 'with', 'would', 'you', 'your', 'a', 'i'],
];
