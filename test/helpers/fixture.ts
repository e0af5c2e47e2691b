/**
 * Content fixtures. `test/fixtures/valid` is a complete content folder; every other scenario folder holds
 * only the files that differ from it (plus an optional `.remove` list), so each failure stays small.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from './scratch.ts';

export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures', import.meta.url));

/** The valid fixture itself; read it, never write to it (use `fixtureDir('valid')` for a copy). */
export const VALID_FIXTURE = path.join(FIXTURES_DIR, 'valid');

/** File in a scenario folder that lists paths (one a line, relative to the content folder) to delete. */
const REMOVE_LIST = '.remove';

const created: string[] = [];

function readRemoveList(scenarioDir: string): string[] {
  try {
    return readFileSync(path.join(scenarioDir, REMOVE_LIST), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Copies `valid` into a fresh temporary folder, overlays the scenario's files and deletes the paths its
 * `.remove` lists; returns the folder. Each call gets its own copy, so tests may change it freely.
 */
export function fixtureDir(scenario: string): string {
  const target = scratchDir(`content-${scenario}`);
  created.push(target);
  cpSync(VALID_FIXTURE, target, { recursive: true });
  if (scenario === 'valid') return target;
  const scenarioDir = path.join(FIXTURES_DIR, scenario);
  cpSync(scenarioDir, target, { recursive: true, filter: (source) => path.basename(source) !== REMOVE_LIST });
  for (const file of readRemoveList(scenarioDir)) rmSync(path.join(target, file), { recursive: true, force: true });
  return target;
}

/** Deletes every folder `fixtureDir` made in this process; call it from `afterAll`. */
export function removeFixtureDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}
