/**
 * Texts of files read before, reused while the file is unchanged. A sweep's worker reads the same task,
 * scene and hand model for every session, and on our 2-core VM a read costs 25–70 µs: up to a tenth of a
 * five-tick session. A text is reused only while the file's device, inode, size, modification time and
 * change time are those it was read under. File times are coarse (a kernel tick), so a file that changed
 * less than {@link RECENT_MS} before it was read is not kept (git's rule for racy files): two writes of
 * the same size within one tick are never taken for one. The clock decides only whether a text is kept,
 * never what it says.
 */
import { readFileSync, type Stats } from 'node:fs';

/** A file changed this recently when read is read again next time. */
const RECENT_MS = 2000;
/** Larger texts are not kept (a shipped task or scene is a few kilobytes). */
const MAX_KEPT_BYTES = 256 * 1024;
/** Least-recently-read texts beyond this many are dropped (at most 64 MiB in all). */
const CAPACITY = 256;

interface Kept {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  text: string;
}

const kept = new Map<string, Kept>();

/** The UTF-8 text of the regular file at `path`, whose `stat` was just taken: the kept one if the file is unchanged. */
export function readTextKept(path: string, stat: Stats): string {
  const hit = kept.get(path);
  if (hit && hit.ino === stat.ino && hit.dev === stat.dev && hit.size === stat.size && hit.mtimeMs === stat.mtimeMs && hit.ctimeMs === stat.ctimeMs) {
    kept.delete(path); // most recently read last
    kept.set(path, hit);
    return hit.text;
  }
  kept.delete(path);
  const text = readFileSync(path, 'utf8');
  const settled = Date.now() - Math.max(stat.mtimeMs, stat.ctimeMs) >= RECENT_MS; // xrsim-allow-clock: whether a file's times can tell an edit, never what a session computes
  if (settled && stat.size <= MAX_KEPT_BYTES) {
    kept.set(path, { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, text });
    if (kept.size > CAPACITY) kept.delete(kept.keys().next().value!);
  }
  return text;
}
