/** A worker thread that gives way to the build (pipeline/thread-priority.ts), then tells its niceness before and after. */
import { readlinkSync } from 'node:fs';
import { getPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { yieldToTheBuild } from '../../generator/pipeline/thread-priority.ts';

const own = () => getPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()));
const before = own();
yieldToTheBuild();
parentPort?.postMessage({ before, after: own() });
