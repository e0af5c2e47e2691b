/**
 * Launches a headless Chromium for the browser tests, with no system package: the one named by CHROMIUM
 * (a system browser, if you have one), else the Linux x64 build that ships inside the @sparticuz/chromium
 * npm package, unpacked to the temporary folder (/tmp/chromium).
 *
 * test/helpers/browser-setup.ts unpacks the bundled browser once before the test files start and hands its
 * path on in CHROMIUM. Here each test file checks that it runs (`--version`, a tenth of a second) before
 * launching it, one process at a time under a lock in the temporary folder: the first to find it missing,
 * or left half written by an interrupted unpacking, unpacks it again while the others wait. On a machine
 * without the NSS libraries it links to (libnss3, libnspr4), or without any font, it runs with the copies
 * the package ships for Amazon Linux 2023.
 * A browser that cannot be found or started fails the suite with what to do about it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Flags for a headless browser as root on a machine with no network but loopback. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A lock whose owner never wrote its pid, and older than this (unpacking takes seconds), was left by a process that died. */
const STALE_LOCK_MS = 120_000;

const OWN_BROWSER = 'or set CHROMIUM=/path/to/chromium to use a browser of your own';
const MISSING_LIBRARY = 'error while loading shared libraries';

interface Launchable {
  executablePath: string;
  env?: Record<string, string>;
}

export async function launchBrowser(): Promise<Browser> {
  const named = process.env.CHROMIUM;
  const bundled = !named || named === path.join(os.tmpdir(), 'chromium');
  const browser = bundled ? await underLock(bundledChromium) : systemChromium(named);
  try {
    return await chromium.launch({ ...browser, args: ARGS });
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new Error(
      bundled
        ? `The Chromium unpacked from @sparticuz/chromium at ${browser.executablePath} runs but did not start as a browser (${reason}): ` +
            `delete it (rm ${browser.executablePath}) and run the tests again, ${OWN_BROWSER}.`
        : `The browser CHROMIUM=${named} names did not start (${reason}): point CHROMIUM at a working Chromium, or unset it ` +
            'to use the one in @sparticuz/chromium.',
      { cause: error },
    );
  }
}

function systemChromium(executablePath: string): Launchable {
  if (!existsSync(executablePath)) {
    throw new Error(
      `CHROMIUM=${executablePath} names no file: point it at a Chromium binary, or unset it to use the one in @sparticuz/chromium.`,
    );
  }
  return { executablePath };
}

interface Bundle {
  executablePath(): Promise<string>;
}

/** The bundled browser, unpacked and checked; the caller holds the lock. */
async function bundledChromium(): Promise<Launchable> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `No browser for the browser tests: the Chromium in @sparticuz/chromium runs on Linux x64 only; set CHROMIUM=/path/to/chromium.`,
    );
  }
  let bundle: Bundle;
  try {
    bundle = (await import('@sparticuz/chromium')).default;
  } catch (error) {
    throw new Error(`No browser for the browser tests: @sparticuz/chromium is not installed. Run "npm ci", ${OWN_BROWSER}.`, {
      cause: error,
    });
  }
  const env: Record<string, string> = {};
  let executablePath = await unpack(bundle);
  let problem = versionProblem(executablePath, env);
  if (problem && !problem.includes(MISSING_LIBRARY)) {
    // Half written by an unpacking that was interrupted: the package unpacks only what is not there yet.
    for (const name of ['chromium', 'fonts', 'libGLESv2.so']) rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
    executablePath = await unpack(bundle);
    problem = versionProblem(executablePath, env);
  }
  if (problem?.includes(MISSING_LIBRARY)) {
    env.LD_LIBRARY_PATH = [path.join(unpackArchive('al2023', 'lib/libnss3.so'), 'lib'), process.env.LD_LIBRARY_PATH]
      .filter(Boolean)
      .join(':');
    problem = versionProblem(executablePath, env);
  }
  if (problem) {
    throw new Error(
      `The Chromium unpacked from @sparticuz/chromium at ${executablePath} does not run (${problem}): delete it ` +
        `(rm ${executablePath}) and run the tests again, ${OWN_BROWSER}.`,
    );
  }
  // With no font at all the browser crashes on the first page it draws.
  if (!hasFonts()) env.FONTCONFIG_FILE = fontConfig(unpackArchive('fonts', 'fonts.conf'));
  return Object.keys(env).length ? { executablePath, env: { ...withoutUndefined(process.env), ...env } } : { executablePath };
}

async function unpack(bundle: Bundle): Promise<string> {
  try {
    return await bundle.executablePath();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Could not unpack the Chromium in @sparticuz/chromium to ${os.tmpdir()} (${reason}): it needs about 300 MB there, ${OWN_BROWSER}.`,
      {
        cause: error,
      },
    );
  }
}

/** Why `executablePath --version` fails, or undefined when it runs. */
function versionProblem(executablePath: string, env: Record<string, string>): string | undefined {
  const run = spawnSync(executablePath, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, ...env } });
  if (run.status === 0) return undefined;
  return (run.stderr?.trim() || run.error?.message || `ended by ${run.signal ?? `exit code ${run.status}`}`).split('\n')[0];
}

/**
 * Unpacks bin/<name>.tar.br of the package to <temporary folder>/<name>, where the package itself puts it on
 * Amazon Linux 2023 (al2023: libnss3, libnspr4 and what they load; fonts: a font and its configuration),
 * unless `marker` is there already. The package does so only on that system; elsewhere a machine that has
 * no such library, or no font, needs them too.
 */
function unpackArchive(name: 'al2023' | 'fonts', marker: string): string {
  const folder = path.join(os.tmpdir(), name);
  if (existsSync(path.join(folder, marker))) return folder;
  const archive = path.join(path.dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '../../bin', `${name}.tar.br`);
  const staging = `${folder}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging);
  const untar = spawnSync('tar', ['-x', '-C', staging], { input: brotliDecompressSync(readFileSync(archive)) });
  if (untar.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`Could not unpack ${archive} (${untar.stderr?.toString().trim() || untar.error?.message}), ${OWN_BROWSER}.`);
  }
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
  return folder;
}

const FONT_FILE = /\.(?:ttf|otf|ttc|pfb|pfa|pcf(?:\.gz)?|woff2?)$/i;

/** Whether the machine has a font the browser can find (or says where its fonts are). */
function hasFonts(): boolean {
  if (process.env.FONTCONFIG_FILE || process.env.FONTCONFIG_PATH) return true;
  const folders = [
    '/usr/share/fonts',
    '/usr/local/share/fonts',
    path.join(os.homedir(), '.fonts'),
    path.join(os.homedir(), '.local/share/fonts'),
  ];
  return folders.some((folder) => {
    try {
      return readdirSync(folder, { recursive: true }).some((name) => FONT_FILE.test(String(name)));
    } catch {
      return false;
    }
  });
}

/** A font configuration for the fonts in `folder` (the package's own names /tmp, whatever the temporary folder). */
function fontConfig(folder: string): string {
  const file = path.join(folder, 'browser-tests.conf');
  const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const staging = `${file}.${process.pid}`;
  writeFileSync(
    staging,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${xml(folder)}</dir>\n` +
      `  <cachedir>${xml(`${folder}-cache`)}</cachedir>\n</fontconfig>\n`,
  );
  renameSync(staging, file);
  return file;
}

function withoutUndefined(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** Runs `work` holding a lock in the temporary folder, so that one process at a time unpacks or checks the browser. */
async function underLock<T>(work: () => Promise<T>): Promise<T> {
  const lock = path.join(os.tmpdir(), 'chromium.lock');
  await takeLock(lock);
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Makes `lock` (a folder: making one is atomic), waiting while another process holds it. A lock whose owner
 * is gone is moved aside and, if it was indeed that one (not a new lock made meanwhile), deleted.
 */
async function takeLock(lock: string): Promise<void> {
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = lockOwner(lock);
    if (owner === 'gone') continue;
    if (owner === 'alive') {
      await sleep(100);
      continue;
    }
    const aside = `${lock}.${process.pid}`;
    try {
      renameSync(lock, aside);
    } catch {
      continue; // someone else moved it first
    }
    if (readPid(aside) === owner) {
      rmSync(aside, { recursive: true, force: true });
    } else {
      try {
        renameSync(aside, lock); // a live lock, made meanwhile: put it back
      } catch {
        rmSync(aside, { recursive: true, force: true });
      }
    }
  }
}

/** 'alive' while the lock's owner runs, 'gone' when the lock was let go meanwhile, else the dead owner's pid ('' if none). */
function lockOwner(lock: string): 'alive' | 'gone' | string {
  const pid = readPid(lock);
  if (!pid) {
    // Its owner has only just made it, or died before writing its pid.
    try {
      return Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS ? '' : 'alive';
    } catch {
      return 'gone';
    }
  }
  try {
    process.kill(Number(pid), 0);
    return 'alive';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? pid : 'alive'; // EPERM: a live process of another user
  }
}

function readPid(lock: string): string {
  try {
    return readFileSync(path.join(lock, 'pid'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/**
 * Collects into `problems` whatever a page reports going wrong: console errors, uncaught exceptions, failed
 * requests and responses with an error status. A test expects it empty.
 */
export function recordProblems(page: Page, problems: string[]): string[] {
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A request the browser dropped because the page went away (an image still loading when a link is
    // followed) is no fault of the site; a refused, reset or blocked one is, and a 404 is counted below.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.push(`failed: ${request.url()} (${request.failure()?.errorText})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  return problems;
}
