/**
 * `xrsim/browser`: running WebXR pages against the simulator (docs/BROWSER.md). Separate from the main
 * entry so that `xrsim` does not load playwright-core.
 */
export { BrowserApp, PageUnresponsiveError, PAGE_EPOCH_MS, injectImportMap, pageImportMapSpecifiers, type BrowserAppOptions, type BrowserSource, type BridgeStats } from './browser-app.js';
export { WarmChromium, launchChromium, chromiumPath, CHROMIUM_FLAGS, sharedChromium, closeSharedChromium } from './chromium.js';
export { BrowserHostApp, PageNeverStartedError, type BrowserHostOptions, type PageOptions, type PageEnd, type PageBrowser, type LayerCapture } from './host-app.js';
export { TickTranslator, type TickedPageError } from './tick-translator.js';
export { TickEncoder, sourceId, type TickExtras } from './tick-encoder.js';
export { startStaticServer, type StaticServer, type StaticServerOptions } from './static-server.js';
export { PackageResolver, parseCdnUrl, proxyModule, DEFAULT_PACKAGES, type CdnAnswer, type LocalPackage } from './packages.js';
export type { CdnRequest, GithubCdnRequest } from './cdn-urls.js';
export { enterXr, PageStartError, type PageStart, type EnterXrOptions } from './enter-xr.js';
export { BadPageOutputError } from './check-output.js';
export { PageLeftError } from './page-left.js';
export * from './protocol.js';
