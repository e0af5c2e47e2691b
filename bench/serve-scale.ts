/**
 * `npm run serve` on a large build, as a person runs it (the whole command, a fresh process):
 * - from the start of the command to its first answer (goal: within 2 s);
 * - the longest any request waits while a new build appears (swapped in by renaming folders, as
 *   `npm run build` does) and the server links its snapshot in the background (goal: 50 ms), with how many
 *   answers came from which build (each answer must be one build's, and after the swap the new one's);
 * - from SIGTERM to the process's end (goal: within 2 s), while that snapshot is still being linked.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { MANIFEST_PATH } from '../generator/shared/data-paths.ts';

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** One GET; its status, time and body. */
export function get(port: number, pathname: string): Promise<{ status: number; ms: number; body: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathname, agent }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - started, body }));
      })
      .on('error', reject);
  });
}

export async function startServe(dist: string): Promise<{ child: ChildProcess; port: number; firstAnswerMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['generator/launch.mjs', 'server/cli.ts', '--dist', dist], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (data) => {
      output += data;
      const match = /at http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error(`npm run serve ended: ${output}`)));
  });
  child.stdout!.resume();
  const answer = await get(port, '/v1/health');
  if (answer.status !== 200) throw new Error(`first answer ${answer.status}`);
  return { child, port, firstAnswerMs: performance.now() - started };
}

/** Clients asking health and a list page in turn until `stop`; the build time of every answer, and the longest wait. */
function keepAsking(port: number) {
  let stop = false;
  let longest = 0;
  const builds = new Map<string, number>();
  let failed = 0;
  const client = async () => {
    while (!stop) {
      // The static copy of health: the API's own would be refused past the rate limit at this pace.
      const answer = await get(port, '/_api/v1/health.json');
      longest = Math.max(longest, answer.ms);
      if (answer.status !== 200) failed++;
      else {
        const builtAt = (JSON.parse(answer.body) as { data: { built_at: string } }).data.built_at;
        builds.set(builtAt, (builds.get(builtAt) ?? 0) + 1);
      }
      longest = Math.max(longest, (await get(port, '/intelligence/')).ms);
    }
  };
  const clients = Promise.all(Array.from({ length: 4 }, client));
  return {
    async end() {
      stop = true;
      await clients;
      return { longest, builds, failed };
    },
    /** The longest wait since the last reset. */
    reset: () => {
      const was = longest;
      longest = 0;
      return was;
    },
  };
}

/** A second build beside `dist`: hard links of every file, with another build time in health and manifest. */
function prepareSecondBuild(dist: string, next: string): void {
  rmSync(next, { recursive: true, force: true });
  spawnSync('cp', ['-al', dist, next]);
  for (const file of [MANIFEST_PATH, '_api/v1/health.json']) {
    const target = path.join(next, file);
    let text: string;
    try {
      text = readFileSync(target, 'utf8');
    } catch {
      continue;
    }
    rmSync(target);
    writeFileSync(target, text.replace(/"built_at":"[^"]+"/, '"built_at":"2030-01-01T00:00:00Z"'));
  }
}

export async function benchServeAtScale(dist: string, articles: number): Promise<void> {
  const next = `${dist}-next`;
  prepareSecondBuild(dist, next);
  const { child, port, firstAnswerMs } = await startServe(dist);
  const load = keepAsking(port);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  load.reset();
  // The same clients with no build appearing, for the machine's own stalls.
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const before = load.reset();
  // A new build appears as npm run build puts it in place: the old folder renamed away, the new renamed in.
  renameSync(dist, `${dist}-previous`);
  renameSync(next, dist);
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const { longest, builds, failed } = await load.end();
  const stopping = performance.now();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  const stopMs = performance.now() - stopping;
  renameSync(dist, next);
  renameSync(`${dist}-previous`, dist);
  rmSync(next, { recursive: true, force: true });
  const answers = [...builds].map(([builtAt, count]) => `${count} from the build of ${builtAt}`).join(', ');
  const size = `${articles.toLocaleString('en')}-article build`;
  console.log(
    `npm run serve, ${size}: first answer ${firstAnswerMs.toFixed(0)} ms after the command started (goal < 2000 ms) ${firstAnswerMs < 2000 ? 'ok' : 'MISSED'}`,
  );
  console.log(
    `  a new build swapped in under 4 clients: longest wait ${longest.toFixed(0)} ms over the 10 s after (goal <= 50 ms) ${longest <= 50 ? 'ok' : 'MISSED'}, against ${before.toFixed(0)} ms over 10 s with no new build; answers: ${answers}; failed ${failed}`,
  );
  console.log(
    `  SIGTERM to exit, with the snapshot still being linked: ${stopMs.toFixed(0)} ms (goal < 2000 ms) ${stopMs < 2000 ? 'ok' : 'MISSED'}`,
  );
}
