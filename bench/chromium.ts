import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// The one Chromium launch the console bench and the browser tests share (the tests import it from here: the build
// compiles bench/, not test/).

/** Debian's Chromium (`apt-get install chromium`); Playwright cannot download its own browsers here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}
