/**
 * `npm start [-- --content DIR --out DIR]`: builds the site for the address it is about to be served on, then
 * serves it, so every link, feed, `url` and the reference's "try it" stay on the local site. SITE_URL (or
 * Netlify's variables) still decides the address when set. `--help` says the same, and builds nothing.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, quietOnClosedOutput } from '../pipeline/command-line.ts';
import { localSite } from './run-server.ts';

const USAGE = `Usage:
  npm start [-- --content DIR --out DIR]    build the site for this server's address, then serve it

Options:
  --content DIR   the content folder (default: content)
  --out DIR       where the build goes, and what is served (default: dist)
  -h, --help      show this help

The build is made for http://HOST:PORT, the address it is served on, unless SITE_URL (or Netlify's URL and
DEPLOY_PRIME_URL) names another; npm run build alone builds for the deployed address.

Environment: HOST (default 127.0.0.1), PORT (default 8080; 0 picks a free one), TRUST_PROXY, and the build's
settings (npm run build -- --help).`;

const LAUNCH = fileURLToPath(new URL('../launch.mjs', import.meta.url));

/** Runs one of the generator's commands in a child process with this terminal; resolves to its exit code. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [LAUNCH, ...args], { stdio: 'inherit', env });
  // Ctrl+C reaches the child from the terminal; a SIGTERM sent to this process alone is passed on.
  const forward = () => child.kill('SIGTERM');
  process.on('SIGTERM', forward);
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    }),
  );
}

async function main(): Promise<number> {
  const options = { content: { type: 'string', default: 'content' }, out: { type: 'string', default: 'dist' } } as const;
  const parsed = parseCommandLine({ usage: USAGE, options }, process.argv.slice(2));
  if (!parsed.ok) return parsed.exitCode;
  const { content, out } = parsed.values;
  if (!statSync(content, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`start failed: content folder not found: ${content} (pass --content DIR)`);
    return 2;
  }
  const site = await localSite(process.env);
  if (typeof site === 'string') {
    console.error(`start failed: ${site}`);
    return 2;
  }
  const built = await run(['pipeline/cli.ts', 'build', '--content', content, '--out', out, '--served-at', site.servedAt], process.env);
  if (built !== 0) return built;
  return run(['server/cli.ts', '--dist', out], { ...process.env, HOST: site.where.host, PORT: String(site.where.port) });
}

quietOnClosedOutput();
process.exitCode = await main();
