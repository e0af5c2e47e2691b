// Loaded with `node --import` before a command the benchmarks time: prints the process's peak resident
// memory (every thread included) on stderr as it exits, as `peak-rss-kb N`.
process.on('exit', () => process.stderr.write(`\npeak-rss-kb ${process.resourceUsage().maxRSS}\n`));
