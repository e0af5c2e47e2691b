/**
 * `npm run dev` is private by default and keeps to itself: it takes its port before it writes anything (a
 * second dev server that cannot start, even a preview, changes nothing anyone serves), it never writes into a
 * folder `npm run build` wrote, it answers requests addressed to localhost only, a preview is readable by its
 * own origin only, the rate limit does not count the editor's own tools, TRUST_PROXY works as in `serve`, live
 * reload caps its connections, and the content manager's proxy listens on loopback whatever HOST says and
 * refuses a foreign Host, a foreign Origin and a request without the per-run token.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LISTENERS } from '../../generator/server/dev/live-reload.ts';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';
import { ADDRESS } from '../helpers/addresses.ts';

interface Dev {
  child: ChildProcess;
  output: () => string;
  port: number;
}
const running: Dev[] = [];

async function startDev(args: string[], env: Record<string, string>): Promise<Dev> {
  const child = spawn(process.execPath, ['generator/launch.mjs', 'server/dev.ts', ...args], {
    env: { ...process.env, PORT: '0', SOURCE_DATE_EPOCH: '1795000000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (data) => (output += data));
  child.stderr!.on('data', (data) => (output += data));
  const dev = { child, output: () => output, port: 0 };
  running.push(dev);
  for (const deadline = Date.now() + 40_000; Date.now() < deadline; ) {
    const match = /Serving .* at http:\/\/[^:]+:(\d+)\//.exec(output);
    if (match) return { ...dev, port: Number(match[1]) };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`npm run dev did not start:\n${output}`);
}

/** A raw request, so that Host and Origin are exactly what the test says. */
function request(port: number, pathname: string, headers: Record<string, string> = {}, method = 'GET', body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathname, method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let contentDir: string;
let preview: Dev;
let open: Dev;

beforeAll(async () => {
  contentDir = fixtureDir('valid');
  const root = tempDir('dev-private');
  [preview, open] = await Promise.all([
    startDev(['--content', contentDir, '--out', path.join(root, 'preview'), '--drafts', '--future'], { TRUST_PROXY: '1' }),
    startDev(['--content', contentDir, '--out', path.join(root, 'open')], { HOST: '0.0.0.0' }),
  ]);
}, 90_000);

afterAll(async () => {
  for (const dev of running) {
    if (dev.child.exitCode !== null) continue;
    dev.child.kill('SIGTERM');
    await once(dev.child, 'exit');
  }
  removeFixtureDirs();
  removeBuildDirs();
});

describe('npm run dev keeps to itself', () => {
  it('a dev server that cannot take its port exits before writing anything, and the running one serves as before', async () => {
    const out = path.join(tempDir('dev-private'), 'second');
    const second = spawnSync(
      process.execPath,
      ['generator/launch.mjs', 'server/dev.ts', '--content', contentDir, '--out', out, '--drafts', '--future'],
      { env: { ...process.env, HOST: '0.0.0.0', PORT: String(open.port) }, encoding: 'utf8', timeout: 60_000 },
    );
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(/the port is in use/);
    expect(existsSync(out)).toBe(false);
    // The running server still leaves the draft out (which a preview shows).
    const isDraft = (item: { id: string }) => item.id.includes('draft');
    const listed = async (dev: Dev) =>
      JSON.parse((await request(dev.port, '/v1/intelligence/list?limit=50', { host: 'localhost' })).body).data;
    expect((await listed(preview)).some(isDraft)).toBe(true);
    expect((await listed(open)).some(isDraft)).toBe(false);
  }, 90_000);

  it('refuses to keep its builds in a folder npm run build wrote', () => {
    const dist = path.join(tempDir('dev-private'), 'dist');
    mkdirSync(path.join(dist, '_api'), { recursive: true });
    writeFileSync(path.join(dist, '_api', 'manifest.json'), '{}');
    const run = spawnSync(process.execPath, ['generator/launch.mjs', 'server/dev.ts', '--content', contentDir, '--out', dist], {
      env: { ...process.env, PORT: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/holds a site build/);
    expect(readdirSync(dist)).toEqual(['_api']);
  }, 90_000);
});

describe('npm run dev is private by default', () => {
  it('answers requests addressed to localhost only (no DNS rebinding)', async () => {
    expect((await request(preview.port, '/v1/health', { host: `localhost:${preview.port}` })).status).toBe(200);
    expect((await request(preview.port, '/v1/health', { host: `127.0.0.1:${preview.port}` })).status).toBe(200);
    const rebound = await request(preview.port, `${ADDRESS.admin}config.yml`, { host: `attacker.example:${preview.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).not.toContain('local_backend');
  });

  it('lets only its own origin read a preview build', async () => {
    const own = `http://localhost:${preview.port}`;
    const host = `localhost:${preview.port}`;
    const foreign = await request(preview.port, '/v1/intelligence/list', { host, origin: 'https://any-site.example' });
    expect(foreign.status).toBe(200);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const same = await request(preview.port, '/v1/intelligence/list', { host, origin: own });
    expect(same.headers['access-control-allow-origin']).toBe(own);
    const feed = await request(preview.port, ADDRESS.jsonFeed, { host, origin: 'https://any-site.example' });
    expect(feed.status).toBe(200);
    expect(feed.headers['access-control-allow-origin']).toBeUndefined();
    // A build without drafts is public data: any origin may read it, as from the deploy.
    const published = await request(open.port, '/v1/intelligence/list', { host: 'localhost', origin: 'https://any-site.example' });
    expect(published.headers['access-control-allow-origin']).toBe('*');
  });

  it("does not count the editor's own tools against the rate limit, and counts clients behind TRUST_PROXY", async () => {
    const host = `localhost:${preview.port}`;
    for (let index = 0; index < 110; index++) expect((await request(preview.port, '/v1/health', { host })).status).toBe(200);
    let status = 0;
    for (let index = 0; index < 110 && status !== 429; index++) {
      status = (await request(preview.port, '/v1/health', { host, 'x-forwarded-for': '203.0.113.7' })).status;
    }
    expect(status).toBe(429);
  }, 60_000);

  it('caps the pages listening for rebuilds', async () => {
    const sockets: net.Socket[] = [];
    try {
      for (let index = 0; index < MAX_LISTENERS; index++) {
        const socket = net.connect(preview.port, '127.0.0.1');
        socket.write(`GET /__dev/events HTTP/1.1\r\nHost: localhost\r\n\r\n`);
        sockets.push(socket);
        await once(socket, 'data');
      }
      const over = await request(preview.port, '/__dev/events', { host: 'localhost' });
      expect(over.status).toBe(503);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await new Promise<number>((resolve) =>
      http.get({ host: '127.0.0.1', port: preview.port, path: '/__dev/events', headers: { host: 'localhost' } }, (res) => {
        resolve(res.statusCode!);
        res.destroy();
      }),
    );
    expect(again).toBe(200);
  });
});

describe("the content manager's proxy", () => {
  const proxyOf = async (dev: Dev) => {
    const response = await request(dev.port, `${ADDRESS.admin}config.yml`, { host: 'localhost' });
    // What the server said and served, in the message: once in many runs under a full suite's load the proxy's
    // address was missing (a content manager that did not start in time is left out, with a line saying why).
    const said = `${dev.output().slice(-600)}\n---\n${response.body.slice(0, 400)}`;
    expect(response.status, said).toBe(200);
    const found = /local_backend:\s*\n\s*url: (\S+)/.exec(response.body);
    expect(found, said).not.toBeNull();
    return new URL(found![1]!);
  };
  const info = (url: URL, headers: Record<string, string>, pathname = url.pathname) =>
    request(Number(url.port), pathname, { 'content-type': 'application/json', ...headers }, 'POST', '{"action":"info"}');

  it('listens on the loopback interface even with HOST=0.0.0.0', async () => {
    const url = await proxyOf(open);
    expect(url.hostname).toBe('127.0.0.1');
    const outward = Object.values(os.networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
    if (outward) {
      const refused = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(url.port), outward);
        socket.on('connect', () => resolve('connected'));
        socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
      expect(refused).toBe('ECONNREFUSED');
    }
    // The dev server itself does listen outward, as HOST asks.
    if (outward) expect((await request(open.port, '/v1/health', { host: 'localhost' })).status).toBe(200);
  });

  it("answers the admin page's own origin with the token, and refuses a foreign Host, a foreign Origin or no token", async () => {
    const url = await proxyOf(preview);
    const origin = `http://localhost:${preview.port}`;
    const host = url.host;
    expect((await info(url, { host, origin })).status).toBe(200);
    expect((await info(url, { host })).status).toBe(200);
    expect((await info(url, { host: `attacker.example:${url.port}`, origin })).status).toBe(403);
    expect((await info(url, { host, origin: 'https://attacker.example' })).status).toBe(403);
    expect((await info(url, { host, origin: `http://localhost:${preview.port + 1}` })).status).toBe(403);
    expect((await info(url, { host, origin }, '/api/v1')).status).toBe(403);
    const wrongToken = url.pathname.replace(/^\/[^/]+/, (token) => `/${token.slice(1).split('').reverse().join('')}`);
    expect((await info(url, { host, origin }, wrongToken)).status).toBe(403);
  });

  it('says in a line when CMS_PORT is taken, and serves without it', async () => {
    const taken = net.createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const dev = await startDev(['--content', contentDir, '--out', path.join(tempDir('dev-private'), 'busy')], { CMS_PORT: String(port) });
      expect(dev.output()).toContain(`content manager not started: the CMS proxy could not listen: port ${port} is in use`);
      expect(dev.output()).not.toContain('EADDRINUSE');
      const config = await request(dev.port, `${ADDRESS.admin}config.yml`, { host: 'localhost' });
      expect(config.status).toBe(200);
      expect(config.body).not.toContain('local_backend');
    } finally {
      taken.close();
    }
  }, 60_000);
});
