/**
 * Serves a build: `npm run serve [-- --dist DIR]`, on HOST and PORT. `--help` says the same.
 */
import { parseCommandLine, quietOnClosedOutput } from '../pipeline/command-line.ts';
import { createServer } from './create-server.ts';
import { describeBuild, listen, readListen, readTrustedProxies, stopOnSignals } from './run-server.ts';

const USAGE = `Usage:
  npm run serve [-- --dist DIR]    serve a build: /v1/ through the API handler, everything else as static files

Options:
  --dist DIR    the build to serve (default: dist; make one with npm run build)
  -h, --help    show this help

Environment: HOST (default 127.0.0.1; 0.0.0.0 to listen on every interface, as in a container),
PORT (default 8080; 0 picks a free one), TRUST_PROXY=N (N proxies in front append to X-Forwarded-For: the
client is the Nth entry from the right; default 0, the socket's address).`;

function main(): number | undefined {
  const parsed = parseCommandLine({ usage: USAGE, options: { dist: { type: 'string', default: 'dist' } } }, process.argv.slice(2));
  if (!parsed.ok) return parsed.exitCode;
  const { dist } = parsed.values;
  const build = describeBuild(dist);
  if (build === null) {
    console.error(`${dist} holds no build; run "npm run build" first (or pass --dist DIR).`);
    return 1;
  }
  const where = readListen(process.env);
  if (typeof where === 'string') {
    console.error(where);
    return 2;
  }
  const trustedProxies = readTrustedProxies(process.env);
  if (typeof trustedProxies === 'string') {
    console.error(trustedProxies);
    return 2;
  }
  const server = createServer({ dist, trustedProxies, log: (line) => console.log(line) });
  void listen(server, where).then(({ url }) => console.log(`Serving ${dist} (${build}) at ${url} (API at /v1/); press Ctrl+C to stop`));
  stopOnSignals(server);
  return undefined;
}

quietOnClosedOutput();
const exitCode = main();
if (exitCode !== undefined) process.exitCode = exitCode;
