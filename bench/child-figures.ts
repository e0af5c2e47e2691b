/**
 * A benchmark's build step in a fresh Node process, so that its peak memory and heap limit are its own: the
 * script is run again with `--build` and the given arguments, and prints its figures as JSON on its last line.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function figuresFromChild<T>(scriptUrl: string, args: string[]): T {
  const argv = ['--max-old-space-size=6144', '--import', 'tsx', fileURLToPath(scriptUrl), '--build', ...args];
  return JSON.parse(
    execFileSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 1 << 20 })
      .trim()
      .split('\n')
      .pop()!,
  );
}
