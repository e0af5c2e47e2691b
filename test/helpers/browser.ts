/** Launches Debian's Chromium for browser tests; a missing browser fails the suite, it never skips it. */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No browser at ${CHROMIUM_PATH}: the browser tests need Debian's chromium package. Install it with "apt-get install chromium" (as root), then run the tests again.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}
