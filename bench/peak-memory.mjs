// Loaded with `node --import` before a command the benchmarks time: prints the process's peak resident
// memory (every thread included) on stderr as it exits, as `peak-rss-kb N`. Only the main thread prints:
// a worker thread that ends early (the build's helper does) would print the peak so far, and be read first.
import { isMainThread } from 'node:worker_threads';

if (isMainThread) process.on('exit', () => process.stderr.write(`\npeak-rss-kb ${process.resourceUsage().maxRSS}\n`));
