/** Starting a session's browser app: the page in the process's warm Chromium, its errors recorded as the app's. */
import type { AppHost } from '../app/host.js';
import { sharedChromium } from '../browser/chromium.js';
import { BrowserHostApp, type LayerCapture } from '../browser/host-app.js';
import type { BrowserAppRef } from '../task/browser-programs.js';

/** The host of a browser app: its page errors become AppError events of the session's app host. */
export function browserHost(ref: BrowserAppRef, appHost: () => AppHost | null | undefined, capture: LayerCapture | undefined): BrowserHostApp {
  return new BrowserHostApp({
    ref,
    capture,
    chromium: sharedChromium(),
    reportError: (error) => appHost()?.recordPageError(error.kind, error.message, error.stack),
    reportStart: (start) => appHost()?.recordPageStart(start),
  });
}
