/**
 * The local server's static side against paths spelt to slip past its header rules: percent-encoded
 * letters, dot segments, doubled slashes, a folder without its slash, the rules file and hidden files.
 * Requests are sent as raw request targets (a URL parser would tidy them up first).
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { normalisePath } from '../../generator/server/static-files.ts';
import { BUILD_ENV } from '../helpers/build-output.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { servedBuild } from '../helpers/served-build.ts';
import { ADDRESS } from '../helpers/addresses.ts';

const site = servedBuild({ contentDir: VALID_FIXTURE, env: BUILD_ENV });

/** GET with `target` sent exactly as written. */
function get(target: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { port } = new URL(site.server.url);
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: target }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

const IMAGE = '/images/resources/rag-evaluation-guide.svg';
/** `/admin/` -> `/%61dmin/`: a folder's address with its first letter percent-encoded. */
const encodedFirst = (address: string) => `/%${address.charCodeAt(1).toString(16)}${address.slice(2)}`;
/** `/docs/` -> `/docs`. */
const withoutSlash = (address: string) => address.slice(0, -1);

describe('paths are decoded and normalised once, before the rules and the file are chosen', () => {
  it.each([
    '/%69mages/resources/rag-evaluation-guide.svg',
    '/%69%6D%61%67%65%73/resources/rag-evaluation-guide.svg',
    '//images/resources/rag-evaluation-guide.svg',
    '/images/./resources/../resources/rag-evaluation-guide.svg',
    '/api/%2e%2e/images/resources/rag-evaluation-guide.svg',
  ])('serves %s as the image it names, with the image sandbox', async (target) => {
    const [plain, spelt] = [await get(IMAGE), await get(target)];
    expect(spelt.status).toBe(200);
    expect(spelt.body).toBe(plain.body);
    expect(spelt.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
    expect(spelt.headers['content-security-policy']).toContain('sandbox');
  });

  it('gives the content manager its CSP however its address is spelt', async () => {
    const plain = await get(ADDRESS.admin);
    const spelt = await get(encodedFirst(ADDRESS.admin));
    expect(spelt.status).toBe(200);
    expect(spelt.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
    expect(spelt.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it.each([
    withoutSlash(ADDRESS.reference),
    withoutSlash(ADDRESS.hub),
    '/services',
    withoutSlash(ADDRESS.admin),
    withoutSlash(encodedFirst(ADDRESS.admin)),
    `/${withoutSlash(ADDRESS.reference)}`,
    `/intelligence/..//${withoutSlash(ADDRESS.reference)}`,
  ])('redirects the folder %s to its slash form, on this site', async (target) => {
    const response = await get(`${target}?x=1`);
    expect(response.status).toBe(301);
    expect(response.headers.location).toMatch(/^\/[\w-]+\/\?x=1$/);
  });

  it.each(['/_headers', '/%5fheaders', '/%5F%68eaders', '/images/../_headers', '/images/%2e%2e/_headers', '/images/..%2f_headers'])(
    'never serves the rules file as %s',
    async (target) => {
      const response = await get(target);
      expect(response.status).toBe(404);
      expect(response.body).not.toContain('Content-Security-Policy');
    },
  );

  it('refuses paths that do not decode or hold a NUL, and never climbs out of the build', async () => {
    expect((await get('/%E0%A4%A')).status).toBe(400);
    expect((await get('/images/%00.svg')).status).toBe(400);
    expect(normalisePath('/../../etc/passwd')).toBe('/etc/passwd');
    expect((await get('/../../../../etc/passwd')).status).toBe(404);
  });

  it('frames nothing on any path, however it is spelt', async () => {
    for (const target of ['/', encodedFirst(ADDRESS.admin), ADDRESS.hub, '/no-such-page']) {
      expect((await get(target)).headers['x-frame-options'], target).toBe('DENY');
    }
  });
});
