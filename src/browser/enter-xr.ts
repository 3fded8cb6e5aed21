/**
 * Entering XR as a user does (docs/BROWSER.md, "Entering XR"). A page that requests its immersive session
 * by itself, at load, starts so. A page that waits for a user gesture, as most published pages do (three.js's
 * `VRButton`/`ARButton`/`XRButton`, XR Blocks' enter button), is started by the simulated user: a trusted
 * click, sent as DevTools input events, so the page sees real user activation (`navigator.userActivation`,
 * transient activation when its click handler calls `requestSession`).
 *
 * Which element: the one named by the app's `start` selector (a task's `apps` entry, `--start`); otherwise
 * the page's own candidates, in a fixed order: elements with their own click handler whose text, id, class
 * or label speaks of entering XR, then other elements with their own click handler, then buttons and links
 * that speak of it, then other buttons. Each is clicked in turn (only where a person could click it: visible,
 * enabled, on top at its centre) until one makes the page request a session. The same page gives the same
 * order, so the same element, on every run; the session records what happened as its first event
 * (`EventType.PageStart`).
 *
 * The click waits until the page is quiet (no request in flight for a few polls), so a page that would
 * request its session by itself once its assets are in is not clicked. Virtual time stays at 0 throughout.
 */
import type { CDPSession } from 'playwright-core';
import type { PageStatus } from './protocol.js';

/** How the page's immersive session started (recorded in frame 0). */
export interface PageStart {
  /** `page`: the page requested its session by itself; `click`: the simulated user clicked `element`. */
  by: 'page' | 'click';
  /** The clicked element as a CSS path from `body` (`body > div#XRButtonWrapper > button.XRButton`). */
  element?: string;
  /** Its text, whitespace collapsed, at most 80 characters. */
  text?: string;
  /** The mode the page requested. */
  mode: string;
  /** Whether `requestSession` ran with transient user activation. */
  activation: boolean;
}

/** Raised when the element a `start` selector names cannot be used (no match, not clickable, no session). */
export class PageStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageStartError';
  }
}

export interface EnterXrOptions {
  /** A CSS selector of the element to click (the app's `start`); default: find it. */
  start?: string;
  /** The page's status (the shim's `status()`). */
  status(): Promise<PageStatus>;
  /** Requests of the page still in flight (a page still loading assets is not clicked yet). */
  inFlight(): number;
  /** Real milliseconds left before giving up. */
  remainingMs(): number;
}

/** Polls of a quiet page (nothing in flight, no session requested) before the simulated user acts. */
const QUIET_POLLS = 3;
/** How long a click may take to make the page request a session before the next candidate is tried. */
const CLICK_WAIT_MS = 1_500;
/** Candidates clicked at most (a page of many buttons, none of which enters XR, is not clicked forever). */
const MAX_CLICKS = 12;
/** Elements looked at, in document order (a page, not a whole document dump). */
const MAX_ELEMENTS = 1_500;
const OBJECT_GROUP = 'xrsim-enter-xr';
/** Listener types by which an element reacts to a press. */
const PRESS_EVENTS = new Set(['click', 'pointerdown', 'pointerup', 'mousedown', 'mouseup', 'touchstart', 'touchend']);

/**
 * Waits until the page requested its session, clicking for the user when it waits for one. Resolves the
 * way in (`by: 'page'` or `'click'`) once the session is requested, or null when time runs out. Throws
 * {@link PageStartError} when a `start` selector cannot be followed.
 */
export async function enterXr(cdp: CDPSession, options: EnterXrOptions): Promise<PageStart | null> {
  const tried = new Set<number>();
  let clicked: { element: string; text: string; at: number } | null = null;
  let clicks = 0;
  let quiet = 0;
  while (options.remainingMs() > 0) {
    const status = await options.status();
    if (status.session !== 'none' && status.start) {
      const { mode, activation } = status.start;
      return clicked ? { by: 'click', element: clicked.element, text: clicked.text, mode, activation } : { by: 'page', mode, activation };
    }
    quiet = status.session === 'none' && options.inFlight() === 0 ? quiet + 1 : 0;
    if (quiet >= QUIET_POLLS && (!clicked || Date.now() - clicked.at > CLICK_WAIT_MS)) { // xrsim-allow-clock: the host's wait for a page, before frame 0
      if (clicked && options.start) throw new PageStartError(`clicking the start element ${JSON.stringify(options.start)} (${clicked.element}) did not make the page request an immersive XR session`);
      const next = clicks < MAX_CLICKS ? await clickNext(cdp, tried, options.start) : null;
      if (next) {
        clicks++;
        clicked = { ...next, at: Date.now() }; // xrsim-allow-clock
        quiet = 0;
      }
    }
    await new Promise((done) => setTimeout(done, 15));
  }
  if (options.start && !clicked) throw new PageStartError(`no element the simulated user can click matches the start selector ${JSON.stringify(options.start)}`);
  return null;
}

/** What the page says of one candidate element. */
interface Candidate {
  path: string;
  text: string;
  /** Whether its text, id, class or label speaks of entering XR. */
  speaks: boolean;
  /** A button, a link, an input button or an element with the button role. */
  buttonLike: boolean;
}

/** Clicks the best candidate not tried yet (or the `start` element); null when there is none now. */
async function clickNext(cdp: CDPSession, tried: Set<number>, start: string | undefined): Promise<{ element: string; text: string } | null> {
  try {
    const list = await cdp.send('Runtime.evaluate', { expression: collectExpression(start), objectGroup: OBJECT_GROUP, returnByValue: false });
    if (list.exceptionDetails) throw new PageStartError(`the start selector ${JSON.stringify(start)} is not a valid CSS selector`);
    const arrayId = list.result.objectId!;
    const described = await cdp.send('Runtime.callFunctionOn', { objectId: arrayId, functionDeclaration: DESCRIBE, returnByValue: true });
    const candidates = described.result.value as Candidate[];
    const properties = await cdp.send('Runtime.getProperties', { objectId: arrayId, ownProperties: true });
    const elements = new Map<number, string>();
    for (const p of properties.result) if (/^\d+$/.test(p.name) && p.value?.objectId) elements.set(Number(p.name), p.value.objectId);
    if (start && candidates.length === 0) return null; // not there (yet)
    const ranked: { index: number; rank: number }[] = [];
    for (let index = 0; index < candidates.length; index++) {
      const objectId = elements.get(index);
      if (!objectId) continue;
      const node = await cdp.send('DOM.describeNode', { objectId });
      if (tried.has(node.node.backendNodeId)) continue;
      const rank = start ? 0 : await rankOf(cdp, objectId, candidates[index]);
      if (rank !== null) ranked.push({ index, rank });
    }
    ranked.sort((a, b) => a.rank - b.rank || a.index - b.index);
    for (const { index } of ranked) {
      const objectId = elements.get(index)!;
      tried.add((await cdp.send('DOM.describeNode', { objectId })).node.backendNodeId);
      if (await trustedClick(cdp, objectId)) return { element: candidates[index].path, text: candidates[index].text };
      if (start) throw new PageStartError(`the start element ${JSON.stringify(start)} (${candidates[index].path}) cannot be clicked: it is hidden, disabled or covered`);
    }
    return null;
  } finally {
    await cdp.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => undefined);
  }
}

/** 0–3 by how likely a person presses it to enter XR (see the file comment); null for an element nobody would. */
async function rankOf(cdp: CDPSession, objectId: string, candidate: Candidate): Promise<number | null> {
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId, depth: 0 });
  const ownHandler = listeners.some((l) => PRESS_EVENTS.has(l.type));
  if (ownHandler) return candidate.speaks ? 0 : 1;
  if (candidate.buttonLike) return candidate.speaks ? 2 : 3;
  return null;
}

/** Scrolls the element into view and clicks its centre with real input events; false when it is not on top there. */
async function trustedClick(cdp: CDPSession, objectId: string): Promise<boolean> {
  await cdp.send('DOM.scrollIntoViewIfNeeded', { objectId }).catch(() => undefined);
  const where = await cdp.send('Runtime.callFunctionOn', { objectId, functionDeclaration: CENTRE, returnByValue: true });
  const point = where.result.value as { x: number; y: number } | null;
  if (!point) return false;
  const base = { x: point.x, y: point.y, button: 'left' as const, clickCount: 1 };
  await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: point.x, y: point.y });
  await cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...base });
  await cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...base });
  return true;
}

/** Page-side: the elements to consider, in document order (the `start` element alone when one is named). */
function collectExpression(start: string | undefined): string {
  const pick = start === undefined ? `[...document.querySelectorAll('body *')].slice(0, ${MAX_ELEMENTS})` : `[...document.querySelectorAll(${JSON.stringify(start)})].slice(0, 1)`;
  return `(() => ${pick}.filter((el) => {
    if (el.disabled || el.closest('[inert]') || el.getClientRects().length === 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.pointerEvents !== 'none';
  }))()`;
}

/** Page-side: a description of each element (`this` is the array). */
const DESCRIBE = `function () {
  const words = /\\b(enter|start|launch|begin|play|view in)\\b|\\b(vr|ar|xr|immersive|webxr)\\b/i;
  const step = (el) => {
    let s = el.localName + (el.id ? '#' + CSS.escape(el.id) : '') + [...el.classList].slice(0, 3).map((c) => '.' + CSS.escape(c)).join('');
    const same = el.parentElement ? [...el.parentElement.children].filter((c) => c.localName === el.localName) : [];
    if (!el.id && same.length > 1) s += ':nth-of-type(' + (same.indexOf(el) + 1) + ')';
    return s;
  };
  return this.map((el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && e !== document.documentElement; e = e.parentElement) parts.unshift(step(e));
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').replace(/\\s+/g, ' ').trim().slice(0, 80);
    const label = [text, el.id, el.className && String(el.className), el.getAttribute('aria-label') || '', el.getAttribute('title') || ''].join(' ');
    const role = el.getAttribute('role');
    const buttonLike = el.localName === 'button' || (el.localName === 'a' && el.hasAttribute('href')) || role === 'button' ||
      (el.localName === 'input' && /^(button|submit|image)$/i.test(el.type));
    return { path: ['body', ...parts].join(' > '), text, speaks: words.test(label) && !/not (supported|found|available)/i.test(text), buttonLike };
  });
}`;

/** Page-side: the element's visible centre, if the element (or a child of it) is what a click there hits. */
const CENTRE = `function () {
  const r = this.getBoundingClientRect();
  const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
  const hit = document.elementFromPoint(x, y);
  return hit && (hit === this || this.contains(hit)) ? { x, y } : null;
}`;
