/**
 * The viewer's HTML document: its style, the import map that points `three` and `fflate` at the copies the
 * server hands out from node_modules, and the entry module. A Content-Security-Policy allows scripts and
 * requests only from the server itself, so the page can fetch nothing from the internet.
 */
import { createHash } from 'node:crypto';

const IMPORT_MAP = JSON.stringify({
  imports: {
    three: '/vendor/three/three.module.js',
    'three/addons/': '/vendor/three-addons/',
    fflate: '/vendor/fflate/browser.js',
  },
});

const STYLE = `
:root { color-scheme: light; font: 13px/1.4 system-ui, sans-serif; color: #222; }
body { margin: 0; display: flex; flex-direction: column; height: 100vh; }
header { display: flex; gap: 12px; align-items: baseline; padding: 6px 12px; background: #263238; color: #eceff1; }
header h1 { font-size: 15px; margin: 0; font-weight: 600; } header a { color: #80cbc4; } header .status { margin-left: auto; }
#replay { flex: 1; display: flex; min-height: 0; }
#scene { flex: 1; position: relative; min-width: 0; background: #eef1f4; }
#scene canvas { display: block; width: 100%; height: 100%; }
#overlay { position: absolute; left: 8px; top: 6px; font: 12px monospace; color: #333; background: #ffffffcc; padding: 2px 6px; pointer-events: none; }
aside { width: 360px; overflow-y: auto; border-left: 1px solid #ccd; padding: 6px 10px; background: #fafbfc; }
aside h2 { font-size: 13px; margin: 10px 0 4px; } aside label { display: block; }
.milestone { display: flex; gap: 6px; } .milestone .mark { width: 10px; height: 10px; margin-top: 3px; border-radius: 2px; flex: none; }
.passed { background: #43a047; } .failed { background: #e53935; } .errored { background: #78909c; }
footer { border-top: 1px solid #ccd; padding: 4px 12px 8px; background: #fff; }
#controls { display: flex; gap: 6px; align-items: center; } #controls input[type=range] { flex: 1; }
#controls .clock { font: 12px monospace; min-width: 190px; text-align: right; }
#markers { width: 100%; height: 26px; display: block; }
#markers .event { stroke: #1e88e5; } #markers .error { stroke: #d81b60; stroke-width: 2; } #markers .evidence-passed { fill: #43a047; }
#markers .evidence-failed { fill: #e53935; } #markers .cursor { stroke: #000; }
svg.plot { width: 100%; height: 110px; background: #fff; border: 1px solid #dde; cursor: crosshair; }
svg.plot .series { fill: none; stroke: #1565c0; stroke-width: 1.3; } svg.plot .threshold { stroke: #d32f2f; stroke-dasharray: 4 3; }
svg.plot .evidence { stroke: #ff9800; } svg.plot .cursor { stroke: #000; } svg.plot text { font-size: 9px; fill: #555; }
#sweep { padding: 12px 18px; overflow: auto; }
#sweep table { border-collapse: collapse; margin: 8px 0; } #sweep td, #sweep th { border: 1px solid #ccc; padding: 3px 8px; text-align: center; }
#sweep th { background: #f3f3f3; } #sweep td.name { text-align: left; }
#sweep .pass { background: #c8e6c9; } #sweep .part { background: #fff3b0; } #sweep .fail { background: #ffcdd2; } #sweep .err { background: #cfd8dc; }
#sweep td a { color: inherit; }
.hidden { display: none !important; }
`;

/** The document (the same for every session: the page reads which one from its URL). */
export function viewerHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>xrsim viewer</title><link rel="icon" href="data:,">
<style>${STYLE}</style>
<script type="importmap">${IMPORT_MAP}</script>
<script type="module" src="/app/src/view/page/main.js"></script>
</head><body>
<header><h1 id="title">xrsim viewer</h1><span id="subtitle"></span><span class="status" id="status">loading…</span></header>
<section id="sweep" class="hidden"></section>
<div id="replay" class="hidden">
  <div id="scene"><div id="overlay"></div></div>
  <aside id="side"></aside>
</div>
<footer id="timeline" class="hidden"></footer>
</body></html>`;
}

/** A policy that lets the page run only this document's import map and the server's own scripts. */
export function contentSecurityPolicy(html: string): string {
  const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  const hash = createHash('sha256').update(importMap).digest('base64');
  return [
    "default-src 'none'",
    `script-src 'self' 'sha256-${hash}'`,
    "connect-src 'self'",
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
