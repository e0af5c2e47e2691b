/**
 * Vitest global setup: finds the browser the browser tests drive, once, before any test file runs (two test
 * files unpacking it at the same moment would race). CHROMIUM, when set, names a browser to use as it is;
 * otherwise the Chromium bundled in @sparticuz/chromium is unpacked (to /tmp, about 2 s the first time) and
 * CHROMIUM is set for the workers.
 */
import { existsSync } from 'node:fs';

export default async function setup(): Promise<void> {
  if (process.env.CHROMIUM) return;
  try {
    const { default: chromium } = await import('@sparticuz/chromium');
    const executablePath = await chromium.executablePath();
    if (existsSync(executablePath)) process.env.CHROMIUM = executablePath;
  } catch (error) {
    // The browser tests say what is missing; the other suites run regardless.
    console.warn(`bundled Chromium unavailable: ${error instanceof Error ? error.message : String(error)}`);
  }
}
