import { defineConfig } from '@playwright/test';
import { xrsimLaunchOptions } from 'xrsim/playwright';

export default defineConfig({
  testDir: 'tests',
  timeout: 180_000,
  workers: 1,
  reporter: 'list',
  // Debian's Chromium (/usr/bin/chromium or XRSIM_CHROMIUM) with software WebGL2: never `npx playwright install`.
  use: { launchOptions: xrsimLaunchOptions() },
});
