/**
 * `xrsim/playwright`: WebXR pages under test in Playwright, with the shim installed and a simulated user
 * (docs/BROWSER.md, "Playwright"). A fixture for Playwright Test (`xrsimFixtures`, used with your own
 * `test.extend`) and a plain async API (`XrPage.open`) for any other runner. playwright-core is loaded
 * when a browser is launched; `@playwright/test` is never imported (it is an optional peer).
 */
export { XrPage, type XrPageOptions, type TagPose, type PageEvent } from './xr-page.js';
export { xrsimFixtures, xrsimLaunchOptions, type XrsimFixture } from './fixture.js';
