// `npm run test:e2e` runs this first: without Chromium the e2e suite cannot start, so say how to fix it in one line.
import { CHROMIUM_MISSING, findChromium } from './chromium.mjs';

if (!findChromium()) {
  console.error(CHROMIUM_MISSING);
  process.exit(1);
}
