/** Starting a session's browser app: the page in the process's warm Chromium, its errors recorded as the app's. */
import type { AppHost } from '../app/host.js';
import { sharedChromium } from '../browser/chromium.js';
import { BrowserHostApp, type LayerCapture, type PageOptions } from '../browser/host-app.js';
import type { BrowserAppRef } from '../task/browser-programs.js';

/** The host of a browser app: its page errors become AppError events of the session's app host. */
export function browserHost(ref: BrowserAppRef, appHost: () => AppHost | null | undefined, capture: LayerCapture | undefined, page: PageOptions = {}): BrowserHostApp {
  return new BrowserHostApp({
    ...page,
    ref,
    capture,
    chromium: page.chromium ?? sharedChromium(),
    reportError: (error) => appHost()?.recordPageError(error.kind, error.message, error.stack),
    reportStart: (start) => appHost()?.recordPageStart(start),
  });
}
