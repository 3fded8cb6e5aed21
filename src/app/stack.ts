/**
 * The stack an AppError record keeps: the app's own frames, as a browser's console shows them, and
 * nothing that depends on where or how xrsim runs. Without this, a recorded stack carried the line
 * numbers of xrsim's own host code, so editing the host (or running it from TypeScript sources instead
 * of `dist/`) changed the session hash of every app that throws.
 */
import { fileURLToPath } from 'node:url';
import { MODULE_BODY } from './module-factory.js';

/** The suffix a fresh module instance's file name carries (`app/fresh-modules.ts`): not part of a stack's meaning. */
const FRESH_INSTANCE = /\?xrsim-instance=\d+/g;
/** A module's top-level code run as a factory (`app/module-factory.ts`), framed as a module's top level is: `at file:line:column`. */
const FACTORY_FRAME = new RegExp(`at ${MODULE_BODY} \\((.*)\\)$`);

/** Stack lines kept in an AppError record. */
const STACK_LINES = 4;

/**
 * xrsim's own code: `src/`, `kernels/` and `workers/` beside this file's `src/` (the checkout, or `dist/`
 * when compiled), as paths and as file URLs. Task apps and actors live in `tasks/`, outside these.
 */
const LIBRARY_DIRS = ['src', 'kernels', 'workers'].flatMap((dir) => {
  const url = new URL(`../../${dir}/`, import.meta.url);
  return [url.href, fileURLToPath(url)];
});

function isLibraryFrame(line: string): boolean {
  return LIBRARY_DIRS.some((dir) => line.includes(dir));
}

/**
 * The first stack lines of the app's code, with file paths cut to their base names (streams must not
 * depend on where a checkout lives). xrsim's own frames are left out: a library function that refused
 * the app's arguments (above the app's frames), and the host that called the app with whatever called
 * xrsim, a worker or a test runner (below them: the stack stops there). Their line numbers change with
 * every edit of xrsim and say nothing about the app. Node's own frames (`node:internal/...`) are dropped
 * too: below an async app's code they show how the host happened to drain the microtask queue.
 */
export function sanitizeStack(stack: string): string {
  const kept: string[] = [];
  let seenApp = false;
  for (const line of stack.split('\n')) {
    if (!/^\s*at /.test(line)) {
      if (!seenApp) kept.push(line); // the message
      continue;
    }
    if (/\(node:|^\s*at node:/.test(line)) continue;
    if (isLibraryFrame(line)) {
      if (seenApp) break;
      continue;
    }
    seenApp = true;
    kept.push(line.replace(FACTORY_FRAME, 'at $1'));
  }
  return kept
    .slice(0, STACK_LINES)
    .map((line) => line.replace(/(?:file:\/\/)?(?:[A-Za-z]:)?[\\/][^\s():]*[\\/]([^\s\\/():]+)/g, '$1').replace(FRESH_INSTANCE, '').trim())
    .join('\n');
}
