/**
 * Builds dist/ before any test runs, so tests that spawn the CLI or start workers use the current code,
 * and the browser tests inject the current shim bundle.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  run([tsc, '-p', 'tsconfig.json']);
  run([tsc, '-p', 'tsconfig.shim.json']);
  // The viewer's page, compiled with the DOM library.
  run([tsc, '-p', 'src/view/page/tsconfig.json']);
  run(['scripts/build-shim.mjs']);
  run(['scripts/precompile-schemas.mjs']);
  run(['scripts/mark-executable.mjs']);
}
