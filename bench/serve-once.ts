/**
 * The local server for the throughput benchmark, in its own process so the load generator does not share
 * its core. A limiter with a huge quota: the limiter's code still runs on every request.
 * Usage: tsx bench/serve-once.ts DIST  (prints the port when listening)
 */
import type { AddressInfo } from 'node:net';
import { createMemoryLimiter } from '../generator/edge/limiter.ts';
import { createServer } from '../generator/server/create-server.ts';

const server = createServer({ dist: process.argv[2]!, handler: { limiter: createMemoryLimiter({ limit: 1e9 }) } });
server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
