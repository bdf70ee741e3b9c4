import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// The one Chromium launch the console bench and the browser tests share (the tests import it from here: the build
// compiles bench/, not test/).

/**
 * Debian's Chromium; Playwright cannot download its own browsers here. Its headless shell (`apt-get install
 * chromium-headless-shell`, built from the same Debian source as `chromium`, and what Playwright itself runs for
 * headless tests) when installed, since it renders the same pages on about half the CPU; else the full browser
 * (`apt-get install chromium`). `CHROMIUM_PATH` picks another.
 */
const DEBIAN_CHROMIUMS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? DEBIAN_CHROMIUMS.find((file) => fs.existsSync(file)) ?? DEBIAN_CHROMIUMS[0]!;

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
      `no Chromium at ${CHROMIUM_PATH}: install Debian's (apt-get install -y chromium-headless-shell) or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}
