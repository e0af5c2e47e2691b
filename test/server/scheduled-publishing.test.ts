/**
 * Scheduled publishing: the build writes when the next scheduled article goes live, and the hourly job reads
 * it from the running site and calls the build hook only when it is due. Against a real local server and a
 * real local HTTP endpoint standing in for the build hook.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { createServer } from '../../generator/server/create-server.ts';
import { checkSchedule, SCHEDULE_PATH } from '../../generator/shared/schedule.ts';
import { BUILD_ENV, readJson, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

let site: string;
let hookUrl: string;
let hookStatus = 200;
const hookCalls: string[] = [];
const closers: (() => Promise<void>)[] = [];

const listen = async (server: http.Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  const content = fixtureDir('valid');
  writeFileSync(
    path.join(content, 'intelligence', 'december.md'),
    '---\ntitle: December\nsummary: Goes live in December.\ndate: 2026-12-15\nauthor: Someone\ntopics: [agentic-commerce]\n---\nSoon.\n',
  );
  const dist = path.join(tempDir('schedule'), 'dist');
  await buildSite({ contentDir: content, outDir: dist, env: BUILD_ENV });
  site = await listen(createServer({ dist }));
  hookUrl = await listen(
    http.createServer((req, res) => {
      hookCalls.push(req.method ?? '');
      res.writeHead(hookStatus).end();
    }),
  );
});

afterAll(async () => {
  for (const close of closers) await close();
  removeBuildDirs();
  removeFixtureDirs();
});

describe('scheduled publishing', () => {
  it('writes when the next scheduled article goes live, and nothing in a preview that includes it', async () => {
    const response = await fetch(`${site}/${SCHEDULE_PATH}`);
    expect(await response.json()).toEqual({ next_publication: '2026-12-15T00:00:00Z', built_at: '2026-11-18T11:06:40Z' });
    const content = fixtureDir('valid');
    const preview = path.join(tempDir('schedule-preview'), 'dist');
    await buildSite({ contentDir: content, outDir: preview, env: BUILD_ENV, preview: { drafts: false, future: true } });
    expect(readJson(preview, SCHEDULE_PATH)).toEqual({ next_publication: null, built_at: '2026-11-18T11:06:40Z' });
  });

  it('calls the build hook once when the article is due, and not before', async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    hookCalls.length = 0;
    expect(await checkSchedule({ siteUrl: site, buildHook: hookUrl, now: new Date('2026-12-14T23:00:00Z'), log })).toBe('nothing due');
    expect(hookCalls).toEqual([]);
    expect(await checkSchedule({ siteUrl: site, buildHook: hookUrl, now: new Date('2026-12-15T00:30:00Z'), log })).toBe('build requested');
    expect(hookCalls).toEqual(['POST']);
    expect(lines).toEqual([
      'scheduled publishing: nothing due (next at 2026-12-15T00:00:00Z)',
      'scheduled publishing: 2026-12-15T00:00:00Z is due; build requested',
    ]);
  });

  it('says so and leaves it to the next hour when the build hook fails or is down', async () => {
    const lines: string[] = [];
    hookStatus = 500;
    const due = new Date('2026-12-16T08:00:00Z');
    expect(await checkSchedule({ siteUrl: site, buildHook: hookUrl, now: due, log: (line) => lines.push(line) })).toBe('build hook failed');
    hookStatus = 200;
    const down = 'http://127.0.0.1:9/hook';
    expect(await checkSchedule({ siteUrl: site, buildHook: down, now: due, log: (line) => lines.push(line) })).toBe('build hook failed');
    expect(lines[0]).toBe(
      'scheduled publishing: 2026-12-15T00:00:00Z is due but the build hook failed (HTTP 500); will try again next hour',
    );
    expect(lines[1]).toMatch(/is due but the build hook failed \(.+\); will try again next hour$/);
  });

  it('runs as the Netlify scheduled function, hourly, and says what it needs when BUILD_HOOK_URL is not set', async () => {
    const { default: publishScheduled, config } = await import('../../netlify/functions/publish-scheduled.ts');
    expect(config).toEqual({ schedule: '@hourly' });
    const saved = { URL: process.env.URL, BUILD_HOOK_URL: process.env.BUILD_HOOK_URL };
    process.env.URL = site;
    delete process.env.BUILD_HOOK_URL;
    try {
      expect((await publishScheduled()).status).toBe(204);
    } finally {
      Object.assign(process.env, saved);
      if (saved.URL === undefined) delete process.env.URL;
      if (saved.BUILD_HOOK_URL === undefined) delete process.env.BUILD_HOOK_URL;
    }
  });

  /** checkSchedule against a deployed schedule of our making; the hook calls it made. */
  async function runWith(schedule: object, now: Date) {
    const calls: string[] = [];
    const fakeFetch = (async (input: string | URL | Request) => {
      if (String(input).endsWith(SCHEDULE_PATH)) return new Response(JSON.stringify(schedule));
      calls.push(String(input));
      return new Response(null, { status: 200 });
    }) as typeof fetch;
    const lines: string[] = [];
    const outcome = await checkSchedule({
      siteUrl: 'https://site.test',
      buildHook: 'https://hook.test',
      now,
      fetch: fakeFetch,
      log: (line) => lines.push(line),
    });
    return { outcome, calls, lines };
  }

  it('does not count a date it cannot read as due', async () => {
    const { outcome, calls } = await runWith({ next_publication: 'soon' }, new Date('2026-12-15T00:30:00Z'));
    expect(outcome).toBe('invalid schedule');
    expect(calls).toEqual([]);
  });

  it('stops asking when the deployed build ran after the due time and still did not publish it (a fixed clock)', async () => {
    const schedule = { next_publication: '2026-12-15T00:00:00Z', built_at: '2026-12-15T00:05:00Z' };
    const { outcome, calls, lines } = await runWith(schedule, new Date('2026-12-15T01:30:00Z'));
    expect(outcome).toBe('build cannot publish');
    expect(calls).toEqual([]);
    expect(lines[0]).toMatch(/SOURCE_DATE_EPOCH/);
  });

  it('asks 0, 1, 2, 4, 8 ... hours after the due time while the deploy does not change, not every hour', async () => {
    const schedule = { next_publication: '2026-12-15T00:00:00Z', built_at: '2026-12-14T10:00:00Z' };
    const asked: number[] = [];
    for (let hour = 0; hour < 72; hour++) {
      const { calls } = await runWith(schedule, new Date(Date.parse('2026-12-15T00:20:00Z') + hour * 3_600_000));
      if (calls.length) asked.push(hour);
    }
    expect(asked).toEqual([0, 1, 2, 4, 8, 16, 32, 64]);
  });
});
