/** The local server as `npm run serve` starts it: a real process, real HTTP, logs, signals. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { buildInto, removeBuildDirs } from '../helpers/build-output.ts';
import { ADDRESS } from '../helpers/addresses.ts';

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
  const child = spawn(process.execPath, ['generator/launch.mjs', 'server/cli.ts', '--dist', dist], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (data) => (output += data));
  child.stderr!.on('data', (data) => (output += data));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const match = /at http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (match) resolve(`http://127.0.0.1:${match[1]}`);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  return { child, base, output: () => output };
}

/** Runs `node generator/launch.mjs <args>` (as `npm run serve` does) from the project folder to its end. */
async function runCommand(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['generator/launch.mjs', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (data) => {
    stdout += data;
  });
  child.stderr!.on('data', (data) => {
    stderr += data;
  });
  const [code] = await once(child, 'exit');
  return { code: code as number, stdout, stderr };
}

describe('npm run serve', () => {
  it('serves the API and static files, logs one line per request, and stops cleanly on SIGTERM', async () => {
    const server = await startServer();
    const api = await fetch(`${server.base}/v1/health`);
    expect(api.status).toBe(200);
    const requestId = api.headers.get('X-Request-Id')!;
    const page = await fetch(`${server.base}${ADDRESS.hub}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    const feed = await fetch(`${server.base}${ADDRESS.resourceFeed}`);
    expect(feed.headers.get('Content-Type')).toMatch(/^application\/json/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.output()).toMatch(new RegExp(`GET /v1/health 200 \\d+\\.\\dms ${requestId}`));
    expect(server.output()).toMatch(new RegExp(`GET ${ADDRESS.hub} 200 `));

    server.child.kill('SIGTERM');
    const [code] = await once(server.child, 'exit');
    expect(code).toBe(0);
    expect(server.output()).toContain('SIGTERM: closing');
  });

  it('says when it is ready: the address (127.0.0.1 unless HOST says otherwise), the build it serves and how to stop', async () => {
    const server = await startServer();
    try {
      const ready = server.output().split('\n')[0]!;
      expect(ready).toMatch(
        /^Serving .+ \(built 2026-11-18T11:06:40Z: 2 services, 2 expertise, 2 technology, 2 intelligence\) at http:\/\/127\.0\.0\.1:\d+\//,
      );
      expect(ready).toContain('Ctrl+C');
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
  });

  it('prints its usage for --help and exits 0; an unknown option gets one line, the usage and exit 2', async () => {
    const help = await runCommand(['server/cli.ts', '--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('npm run serve [-- --dist DIR]');
    expect(help.stdout).toContain('HOST');
    const wrong = await runCommand(['server/cli.ts', '--port', '9']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.split('\n')[0]).toBe("error: Unknown option '--port'");
    expect(wrong.stderr).toContain('Usage:');
    expect(wrong.stderr).not.toMatch(/^\s+at /m);
  });

  it('refuses to start on a folder that holds no build', async () => {
    const child = spawn(process.execPath, ['generator/launch.mjs', 'server/cli.ts', '--dist', '/nonexistent'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (data) => (stderr += data));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain('run "npm run build" first');
  });

  it.each([
    ['counts the address the trusted proxy appended to X-Forwarded-For with TRUST_PROXY=1', { TRUST_PROXY: '1' }, 200],
    ['ignores X-Forwarded-For by default', {}, 429],
  ])('%s', async (_name, env, otherStatus) => {
    const server = await startServer(env);
    try {
      // A proxy appends the address it saw; what comes before is the client's own words, here a new lie each time.
      let forged = 0;
      const from = (ip: string) =>
        fetch(`${server.base}/v1/health`, { headers: { 'X-Forwarded-For': `198.51.100.${forged++ % 250}, ${ip}` } });
      for (let i = 0; i < 100; i++) expect((await from('203.0.113.1')).status).toBe(200);
      expect((await from('203.0.113.1')).status).toBe(429);
      expect((await from('203.0.113.2')).status).toBe(otherStatus);
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
  });
});
