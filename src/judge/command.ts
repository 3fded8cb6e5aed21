/**
 * Running a judge command: a shell command line that reads a request (JSON on stdin, and the same JSON in
 * the file `$XRSIM_JUDGE_REQUEST`) and prints a verdict `{ "passed": bool, "confidence": 0..1, "reason":
 * "..." }` as the last line of its stdout. A judge that cannot be started, exits non-zero, runs past its
 * time limit or prints anything else gives a reason, never a verdict. docs/TASKS.md has the protocol.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { JudgeVerdict } from '../validate/types.js';

/** What a judge is asked. */
export interface JudgeRequest {
  /** The human-written criterion. */
  criterion: string;
  task: string;
  /** The milestones the verdict decides. */
  milestones: string[];
  /** What the images show: `layer`, what a browser app drew into its XR layer (both eyes side by side), or `simulation`, the simulation's own view. */
  view: 'layer' | 'simulation';
  /** The images, one per moment, in order. */
  images: { path: string; at: number | string; tick: number; time: number; width: number; height: number; camera: string; view: string }[];
  /** What draws in which colour in the simulation's view: object references (`task:ID`, `scene:ID`) and labels, each with its RGB colours (empty for a layer). */
  colours: Record<string, [number, number, number][]>;
  /** Pixels that show nothing. */
  background: [number, number, number];
}

/** A verdict, or why there is none. */
export type JudgeOutcome = { verdict: JudgeVerdict } | { error: string };

const MAX_OUTPUT = 1 << 20;

/** Runs `command` on a request (written to `requestPath` too) with a time limit in seconds. */
export async function runJudge(command: string, request: JudgeRequest, requestPath: string, timeoutSeconds: number): Promise<JudgeOutcome> {
  const run = await runCommandLine(command, request, { XRSIM_JUDGE_REQUEST: requestPath }, requestPath, timeoutSeconds, 'judge');
  return 'error' in run ? run : parseVerdict(run.stdout, command);
}

/**
 * Runs a shell command line with a JSON request on stdin (and written to `requestPath`, named in `env`),
 * within a time limit: its stdout, or why it gave none (it could not start, exited non-zero with the tail of
 * its stderr, or ran too long). `what` names it in the reasons (`judge`, `design judge`).
 */
export function runCommandLine(command: string, request: unknown, env: Record<string, string>, requestPath: string, timeoutSeconds: number, what: string): Promise<{ stdout: string } | { error: string }> {
  const text = JSON.stringify(request);
  writeFileSync(requestPath, text);
  return new Promise((done) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    const finish = (outcome: { stdout: string } | { error: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(outcome);
    };
    const child = spawn('sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ error: `${what} timed out after ${timeoutSeconds} s: ${command}` });
    }, timeoutSeconds * 1000);
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < MAX_OUTPUT) stderr += d.toString('utf8');
    });
    child.on('error', (err) => finish({ error: `${what} could not start (${err.message}): ${command}` }));
    // A command that does not read its stdin closes it early; that is not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(text);
    child.on('close', (code, signal) => {
      if (code !== 0) {
        const tail = stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 500);
        finish({ error: `${what} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}${tail ? ` (${tail})` : ''}: ${command}` });
        return;
      }
      finish({ stdout });
    });
  });
}

/** The verdict on the last non-empty line of a judge's output. */
export function parseVerdict(stdout: string, command: string): JudgeOutcome {
  const expected = 'a JSON object { "passed": true|false, "confidence": 0..1, "reason": "..." } on the last line of stdout';
  const line = stdout.trim().split('\n').pop()?.trim() ?? '';
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: `judge printed no JSON verdict (expected ${expected}): ${command}` };
  }
  const v = value as Record<string, unknown> | null;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: `judge's verdict is not an object (expected ${expected}): ${command}` };
  if (typeof v.passed !== 'boolean') return { error: `judge's verdict has no boolean "passed" (expected ${expected}): ${command}` };
  if (typeof v.confidence !== 'number' || !(v.confidence >= 0 && v.confidence <= 1)) return { error: `judge's verdict has no "confidence" in [0, 1] (expected ${expected}): ${command}` };
  if (typeof v.reason !== 'string') return { error: `judge's verdict has no string "reason" (expected ${expected}): ${command}` };
  return { verdict: { passed: v.passed, confidence: v.confidence, reason: v.reason.slice(0, 2000) } };
}
