/**
 * A second thread for `npm run build` (the machine it runs on has at least two cores): it renders most of
 * the Markdown bodies while this thread renders the rest, then builds the search index while this thread
 * makes and writes every other file. Started with the build, so its modules load while the content
 * is read. The same functions run in either thread, so the output is byte-identical to a build without it.
 */
import type { SearchDocument } from '../../search/index-format.ts';
import type { SynonymTable } from '../../search/synonyms.ts';
import { startTypeScriptWorker } from '../typescript-worker.ts';
import type { OutputFile } from '../outputs/output-file.ts';
import type { KeptWhole } from '../outputs/search/search-store.ts';
import type { TermUpdate, TermUpdated } from '../outputs/search/term-update.ts';
import { bodyOf, type RawRecord } from '../load/load-file.ts';
import { askThread } from '../thread-requests.ts';
import { pacedPosting } from './paced-posting.ts';
import { renderMarkdown } from '../outputs/render-markdown.ts';

export type HelperTask =
  | { kind: 'render'; bodies: string[] }
  | { kind: 'search'; budgetMb: number }
  | { kind: 'digests'; files: string[] }
  | { kind: 'term-update'; task: TermUpdate };
/**
 * The search index's documents go in slices, told without an answer before the task that asks for the
 * index: the helper holds one slice's Markdown at a time, never every body's (0.4 GB at 100,000 articles).
 */
export type HelperTold =
  | { kind: 'search-start'; synonyms: SynonymTable | null; keep?: KeepFor | undefined }
  | { kind: 'search-slice'; documents: SearchDocument[]; keys?: string[] | undefined }
  | { kind: 'search-parts'; outDir: string };
/** What a build keeps of a whole index for its store on disk (stored-search.ts): the scope, and where to stage it. */
export type KeepFor = { scope: string; staging: string };

export interface BuildHelper {
  /**
   * The digests of the content files a cold build's load did not read (its images and other files), for its
   * record (content-digests.ts coldDigests), taken beside the build: a thread of their own cost a thread's start.
   */
  digests(files: string[]): Promise<string[]>;
  /** Each body's HTML, or null where rendering failed (the caller renders it again to report the error). */
  render(bodies: string[]): Promise<(string | null)[]>;
  /** The search index's files from documents whose bodies are Markdown; rejects with the writer's error. */
  searchIndex(documents: SearchDocument[], budgetMb: number, synonyms: SynonymTable | null): Promise<OutputFile[]>;
  /** The same, with what the store on disk keeps of it (stored-search.ts). */
  searchIndexKeeping(
    documents: SearchDocument[],
    budgetMb: number,
    synonyms: SynonymTable | null,
    keep: KeepFor & { keys: readonly string[] },
  ): Promise<{ files: OutputFile[]; kept: KeptWhole }>;
  /** The search index's update by term after an edit (stored-search-update.ts), run while the build's thread makes the other outputs. */
  termUpdate(task: TermUpdate): Promise<TermUpdated>;
  /** Reads the index's parts in `outDir` ahead of an update by term, for `termUpdate` to take (term-update.ts readAhead). */
  readSearchParts(outDir: string): void;
  /** Posts the slices the helper has room for: the build's thread calls it as it makes files (paced-posting.ts). */
  pump(): void;
  /** Ends the thread; a build calls it however it ends. */
  close(): Promise<void>;
}

/**
 * Characters of Markdown in a slice of what the helper is sent (bodies to render, the search index's
 * documents): about 60 articles of 400 words, so that what it holds of a slice can die young.
 */
export const SLICE_CHARACTERS = 1 << 18;

/** `documents` in slices of about SLICE_CHARACTERS of body (at least one document each), with their keys. */
export function* slicesOf<T extends { body: string }>(documents: readonly T[], keys?: readonly string[]) {
  let start = 0;
  let characters = 0;
  for (let end = 0; end < documents.length; end++) {
    characters += documents[end]!.body.length;
    if (characters < SLICE_CHARACTERS && end < documents.length - 1) continue;
    yield { documents: documents.slice(start, end + 1), keys: keys?.slice(start, end + 1) };
    start = end + 1;
    characters = 0;
  }
}

/**
 * A document as it is posted to the helper: a copy holding the body until posted. The caller's own lets its
 * body go (the caller keeps the documents, but not their bodies, to the index's end: stored-search.ts), which
 * held the Markdown, and the text of the file it is cut from, to the end of the build.
 */
function handedOver(document: SearchDocument): SearchDocument {
  const copy = { ...document };
  document.body = '';
  return copy;
}

/** The helper's share of the bodies to render (measured on 4,000 articles: both threads then finish together). */
const HELPER_SHARE = 0.65;

/**
 * `endAfterSearch`: the search index is the build's last task for the helper (the bodies are sent first), so
 * the thread ends as soon as it has answered it. The build's thread is then busy emitting and may not turn
 * to its event loop until the end, so it could not end the helper itself: the helper's heap, as large as
 * what the index took to write, would stay until the build ends, beside this thread's at its largest.
 */
export function startBuildHelper({ endAfterSearch = false } = {}): BuildHelper {
  const posting = pacedPosting(() => worker);
  const worker = startTypeScriptWorker(new URL('./helper-thread.ts', import.meta.url), { endAfterSearch, slicesTaken: posting.taken });
  const thread = askThread<HelperTask>(worker, "the build's helper thread", undefined, (message) => posting.post(message));
  const ask = <T>(task: HelperTask): Promise<T> => thread.ask<T>(task);
  /** The index of `documents`: its slices told, then the index asked (a slice that failed fails the answer). */
  const searchIndex = <T>(
    documents: SearchDocument[],
    budgetMb: number,
    synonyms: SynonymTable | null,
    keep?: KeepFor,
    keys?: readonly string[],
  ) => {
    posting.post({ kind: 'search-start', synonyms, keep } satisfies HelperTold);
    for (const slice of slicesOf(documents, keys))
      posting.post({ kind: 'search-slice', ...slice, documents: slice.documents.map(handedOver) } satisfies HelperTold, true);
    return ask<T>({ kind: 'search', budgetMb });
  };
  return {
    digests: (files) => ask({ kind: 'digests', files }),
    render: (bodies) => ask({ kind: 'render', bodies }),
    searchIndex: (documents, budgetMb, synonyms) => searchIndex(documents, budgetMb, synonyms),
    searchIndexKeeping: (documents, budgetMb, synonyms, { keys, ...keep }) => searchIndex(documents, budgetMb, synonyms, keep, keys),
    // Undefined does not cross a thread's messages: the helper answers null for "written whole".
    termUpdate: async (task) => (await ask<TermUpdated | null>({ kind: 'term-update', task })) ?? undefined,
    readSearchParts: (outDir) => posting.post({ kind: 'search-parts', outDir } satisfies HelperTold),
    pump: posting.pump,
    async close() {
      await worker.terminate();
    },
  };
}

/**
 * A helper started only when first asked for work, for a build whose caller did not start one: a helper that
 * is asked nothing (a build that carries its outputs over and finds no search index to update) spends its
 * thread 0.15 to 0.3 s of CPU loading its modules. `npm run build` starts its own once its content check says
 * the build must run, so its modules load while the content does (cli.ts).
 */
export function helperWhenAsked(start: () => BuildHelper): BuildHelper {
  let helper: BuildHelper | undefined;
  const now = () => {
    helper ??= start();
    return helper;
  };
  return {
    digests: (files) => now().digests(files),
    render: (bodies) => now().render(bodies),
    searchIndex: (documents, budgetMb, synonyms) => now().searchIndex(documents, budgetMb, synonyms),
    searchIndexKeeping: (documents, budgetMb, synonyms, keep) => now().searchIndexKeeping(documents, budgetMb, synonyms, keep),
    termUpdate: (task) => now().termUpdate(task),
    // Not worth a thread's start on its own: read ahead only by a helper already started.
    readSearchParts: (outDir) => helper?.readSearchParts(outDir),
    pump: () => helper?.pump(),
    close: async () => helper?.close(),
  };
}

/**
 * The HTML of the published bodies for a cold build, most of it rendered by the helper: begun as the content
 * was read (`renders`), else started now; none after an edit (most pages are carried over) or without a helper.
 */
export async function renderCold(
  options: { renders?: FinishRendering | undefined; helper?: BuildHelper | undefined; tracking?: { previous?: unknown } | undefined },
  bodies: () => Iterable<string>,
): Promise<Map<string, string> | undefined> {
  const { renders, helper, tracking } = options;
  const finish = renders ?? (helper && !tracking?.previous ? startRendering(helper, bodies()) : undefined);
  return finish && (await finish(renderMarkdown));
}

/** Renders the rest of the bodies in this thread and collects every body's HTML (startRendering). */
export type FinishRendering = (render: (body: string) => string) => Promise<Map<string, string>>;

/**
 * Sends the helper its share of the distinct bodies at once; the returned function renders the rest in this
 * thread and collects the HTML of every body. A body that fails to render is left out, so the build renders
 * it again where it can report the record's file. `share`: HELPER_SHARE when this thread renders its part at
 * once; more when the helper starts while this thread still has other work (EARLY_SHARE).
 */
export function startRendering(helper: BuildHelper, bodies: Iterable<string>, share = HELPER_SHARE): FinishRendering {
  const distinct = [...new Set(bodies)];
  const split = Math.ceil(distinct.length * share);
  // In slices, each answered on its own: the helper holds one slice's Markdown and HTML at a time, which die
  // young, rather than all of its share's (0.45 GB at 100,000 articles, left in its old generation).
  const theirs = [...slicesOf(distinct.slice(0, split).map((body) => ({ body })))].map((slice) => {
    const bodies = slice.documents.map(({ body }) => body);
    return { bodies, html: helper.render(bodies) };
  });
  return async (render) => {
    const html = new Map<string, string>();
    for (const body of distinct.slice(split)) {
      try {
        html.set(body, render(body));
      } catch {}
    }
    for (const slice of theirs)
      for (const [index, result] of (await slice.html).entries()) if (result !== null) html.set(slice.bodies[index]!, result);
    // The map is the caller's, who lets each body go once used (render-bodies.ts); nothing here holds them.
    theirs.length = 0;
    distinct.length = 0;
    return html;
  };
}

/**
 * A cold build's bodies, every one rendered by the helper from the moment the load reads it: `read` is told each
 * Markdown record as it is read and sends the distinct bodies in slices, so the helper renders while this
 * thread still reads the content, validates it and selects what is published, when the helper has nothing else
 * to do; `finish` sends the last slice and collects the HTML. This thread renders none but those the helper
 * failed on (the outputs render them again to report the record's file). Rendering began only once the whole
 * content was read, the helper was idle through the load (0.5 to 0.7 s at 4,000 articles) and this thread
 * rendered a fifth of the bodies itself.
 */
export function renderAsRead(helper: BuildHelper): {
  read(record: Pick<RawRecord, 'body' | 'readBody'>): void;
  finish(): FinishRendering;
} {
  const seen = new Set<string>();
  const sent: { bodies: string[]; html: Promise<(string | null)[]> }[] = [];
  let slice: string[] = [];
  let characters = 0;
  const send = () => {
    if (slice.length > 0) sent.push({ bodies: slice, html: helper.render(slice) });
    slice = [];
    characters = 0;
  };
  return {
    read(record) {
      // A record the load store kept holds no text: its body is read from its file.
      const body = bodyOf(record);
      if (body === undefined || seen.has(body)) return;
      seen.add(body);
      slice.push(body);
      characters += body.length;
      if (characters >= SLICE_CHARACTERS) send();
    },
    finish() {
      send();
      seen.clear();
      return async () => {
        const html = new Map<string, string>();
        for (const { bodies, html: answer } of sent)
          for (const [index, result] of (await answer).entries()) if (result !== null) html.set(bodies[index]!, result);
        // The map is the caller's, who lets each body go once used (render-bodies.ts); nothing here holds them.
        sent.length = 0;
        return html;
      };
    },
  };
}

/**
 * The HTML of every distinct body, most of it rendered by the helper while this thread renders the rest: the
 * helper's other task, the search index, is shorter than what this thread does after rendering.
 */
export const renderWithHelper = (helper: BuildHelper, bodies: Iterable<string>, render: (body: string) => string) =>
  startRendering(helper, bodies)(render);
