// Bundles the WebXR shim for the browser: dist/xrsim-shim.js (an IIFE the host injects as an init
// script; it installs from window.__xrsimConfig) and dist/shim/index.js (the ESM export `xrsim/shim`).
// Type-checked separately by `tsc -p tsconfig.shim.json` (DOM types), which also writes its .d.ts files.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const common = { bundle: true, target: 'chrome120', logLevel: 'warning', absWorkingDir: root, legalComments: 'none' };
await build({ ...common, entryPoints: ['src/browser/shim/auto-install.ts'], outfile: 'dist/xrsim-shim.js', format: 'iife' });
await build({ ...common, entryPoints: ['src/browser/shim/index.ts'], outfile: 'dist/shim/index.js', format: 'esm' });
