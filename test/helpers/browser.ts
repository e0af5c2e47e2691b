/**
 * Launches a headless Chromium for the browser tests, with no system package: the one named by CHROMIUM
 * (a system browser, if you have one), else the Linux x64 build that ships inside the @sparticuz/chromium
 * npm package, unpacked to the temporary folder (/tmp/chromium). test/helpers/browser-setup.ts unpacks it
 * once before the test files start and hands its path on in CHROMIUM; when that has not happened, the
 * first worker here unpacks it while the others wait, so no worker ever starts a half-written binary.
 * A browser that cannot be found or started fails the suite with what to do about it.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Browser, chromium } from 'playwright-core';

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

const USE_CHROMIUM = 'or set CHROMIUM=/path/to/chromium to use a browser of your own';

/** Where @sparticuz/chromium unpacks its browser (it unpacks only when nothing is there yet). */
const bundledChromiumPath = (): string => path.join(os.tmpdir(), 'chromium');

export async function launchBrowser(): Promise<Browser> {
  const named = process.env.CHROMIUM;
  const executablePath = named || (await unpackBundledChromium());
  const bundled = executablePath === bundledChromiumPath();
  if (!existsSync(executablePath)) {
    throw new Error(`CHROMIUM=${named} names no file: point it at a Chromium binary, or unset it to use the one in @sparticuz/chromium.`);
  }
  try {
    return await chromium.launch({ executablePath, args: ARGS });
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new Error(
      bundled
        ? `The Chromium unpacked from @sparticuz/chromium at ${executablePath} did not start (${reason}). An unpacking that was ` +
            `interrupted leaves it incomplete: delete it (rm ${executablePath}) and run the tests again, ${USE_CHROMIUM}. ` +
            'The bundled build runs on Linux x64 only.'
        : `The browser CHROMIUM=${executablePath} names did not start (${reason}): point CHROMIUM at a working Chromium, or ` +
            'unset it to use the one in @sparticuz/chromium.',
      { cause: error },
    );
  }
}

/** The bundled browser's path, unpacking it first when it is not there, one process at a time. */
async function unpackBundledChromium(): Promise<string> {
  let bundle: { executablePath(): Promise<string> };
  try {
    bundle = (await import('@sparticuz/chromium')).default;
  } catch (error) {
    throw new Error(`No browser for the browser tests: @sparticuz/chromium is not installed. Run "npm ci", ${USE_CHROMIUM}.`, {
      cause: error,
    });
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `No browser for the browser tests: the Chromium in @sparticuz/chromium runs on Linux x64 only; set CHROMIUM=/path/to/chromium.`,
    );
  }
  const target = bundledChromiumPath();
  const lock = `${target}.unpacking`;
  await takeLock(lock);
  try {
    return await bundle.executablePath();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Could not unpack the Chromium in @sparticuz/chromium to ${target} (${reason}): it needs about 300 MB there, ${USE_CHROMIUM}.`,
      {
        cause: error,
      },
    );
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Makes `lock` (a folder: making one is atomic), waiting while another process holds it. A lock whose owner
 * is gone, or that is older than any unpacking, is taken over, and what the package checks to decide that
 * its files are already unpacked is deleted, so whatever that owner left half written is unpacked again.
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
    const state = lockState(lock);
    if (state === 'stale') {
      rmSync(lock, { recursive: true, force: true });
      for (const name of ['chromium', 'fonts', 'libGLESv2.so']) rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
    } else if (state === 'held') {
      await sleep(100);
    }
  }
}

/** 'held' while its owner lives, 'stale' when the owner is gone, 'gone' when it was let go meanwhile. */
function lockState(lock: string): 'held' | 'stale' | 'gone' {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    pid = 0;
  }
  try {
    // No pid yet: its owner has only just made it, or died before it could write one.
    if (!pid) return Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS ? 'stale' : 'held';
    process.kill(pid, 0);
    return 'held';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return 'stale';
    if (code === 'ENOENT') return 'gone';
    return 'held'; // EPERM: a live process of another user
  }
}
