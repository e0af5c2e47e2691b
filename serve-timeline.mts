// usage: npx tsx serve-timeline.mts <dist>: longest wait per 500 ms window before and after a new build is swapped in
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { get, startServe } from './bench/serve-scale.ts';
import { MANIFEST_PATH } from './generator/shared/data-paths.ts';
const dist = process.argv[2]!;
const next = `${dist}-next`;
rmSync(next, { recursive: true, force: true });
spawnSync('cp', ['-al', dist, next]);
for (const file of [MANIFEST_PATH, '_api/v1/health.json']) {
  const target = path.join(next, file);
  const text = readFileSync(target, 'utf8');
  rmSync(target);
  writeFileSync(target, text.replace(/"built_at":"[^"]+"/, '"built_at":"2030-01-01T00:00:00Z"'));
}
const { child, port } = await startServe(dist);
let stop = false;
const t0 = performance.now();
const windows = new Map<number, number>();
const note = (ms: number) => { const w = Math.floor((performance.now() - t0) / 500); windows.set(w, Math.max(windows.get(w) ?? 0, ms)); };
const client = async () => { while (!stop) { note((await get(port, '/_api/v1/health.json')).ms); note((await get(port, '/intelligence/')).ms); } };
const clients = Promise.all(Array.from({ length: 4 }, client));
await new Promise((r) => setTimeout(r, 5000));
const swapAt = Math.floor((performance.now() - t0) / 500);
renameSync(dist, `${dist}-previous`);
renameSync(next, dist);
await new Promise((r) => setTimeout(r, 20000));
stop = true; await clients;
child.kill('SIGTERM'); await new Promise((r) => child.once('exit', r));
renameSync(dist, next); renameSync(`${dist}-previous`, dist); rmSync(next, { recursive: true, force: true });
console.log([...windows].map(([w, ms]) => `${w === swapAt ? '|' : ''}${(w * 0.5).toFixed(1)}:${ms.toFixed(0)}`).join(' '));
