/**
 * Launches a headless Chromium for the browser tests, with no system package: the one named by CHROMIUM
 * (a system browser, if you have one), else the Linux build that ships inside the @sparticuz/chromium npm
 * package, unpacked once per test run by test/helpers/browser-setup.ts. A missing browser fails the suite.
 */
import { existsSync } from 'node:fs';
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

export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM;
  if (!executablePath || !existsSync(executablePath)) {
    throw new Error(
      `No browser${executablePath ? ` at ${executablePath}` : ''}: the browser tests use CHROMIUM=/path/to/chromium when it is set, else the ` +
        'Chromium inside the @sparticuz/chromium package (run "npm install"; it is unpacked when the tests start).',
    );
  }
  return chromium.launch({ executablePath, args: ARGS });
}
