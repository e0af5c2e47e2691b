/** The local server as `npm run serve` starts it: a real process, real HTTP, logs, signals. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { buildInto, removeBuildDirs } from '../helpers/build-output.ts';

let dist: string;
beforeAll(async () => {
  dist = await buildInto(VALID_FIXTURE);
});
afterAll(removeBuildDirs);

interface Running {
  child: ChildProcess;
  base: string;
  output: () => string;
}

async function startServer(env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'generator/server/cli.ts', '--dist', dist], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (data) => (output += data));
  child.stderr!.on('data', (data) => (output += data));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const match = /http:\/\/localhost:(\d+)\//.exec(output);
      if (match) resolve(`http://127.0.0.1:${match[1]}`);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  return { child, base, output: () => output };
}

describe('npm run serve', () => {
  it('serves the API and static files, logs one line per request, and stops cleanly on SIGTERM', async () => {
    const server = await startServer();
    const api = await fetch(`${server.base}/v1/health`);
    expect(api.status).toBe(200);
    const requestId = api.headers.get('X-Request-Id')!;
    const page = await fetch(`${server.base}/resources/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    const feed = await fetch(`${server.base}/api/resources.json`);
    expect(feed.headers.get('Content-Type')).toMatch(/^application\/json/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.output()).toMatch(new RegExp(`GET /v1/health 200 \\d+\\.\\dms ${requestId}`));
    expect(server.output()).toMatch(/GET \/resources\/ 200 /);

    server.child.kill('SIGTERM');
    const [code] = await once(server.child, 'exit');
    expect(code).toBe(0);
    expect(server.output()).toContain('SIGTERM: closing');
  });

  it('refuses to start on a folder that holds no build', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'generator/server/cli.ts', '--dist', '/nonexistent'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (data) => (stderr += data));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain('run "npm run build" first');
  });

  it.each([
    ['takes the client address from X-Forwarded-For only with TRUST_PROXY=1', { TRUST_PROXY: '1' }, 200],
    ['ignores X-Forwarded-For by default', {}, 429],
  ])('%s', async (_name, env, otherStatus) => {
    const server = await startServer(env);
    try {
      const from = (ip: string) => fetch(`${server.base}/v1/health`, { headers: { 'X-Forwarded-For': `${ip}, 10.0.0.1` } });
      for (let i = 0; i < 100; i++) expect((await from('203.0.113.1')).status).toBe(200);
      expect((await from('203.0.113.1')).status).toBe(429);
      expect((await from('203.0.113.2')).status).toBe(otherStatus);
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
  });
});
