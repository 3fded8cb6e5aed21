#!/usr/bin/env node
// Development helper: runs every app of the given tasks (default: all XR tasks) with both hands in the
// task's first two scenes and prints where the verdicts differ from what the task declares.
// Usage: node scripts/check-suite.mjs [task-glob...]
import { listTaskIds, loadTask, runSession } from 'xrsim';

const patterns = process.argv.slice(2);
const ids = listTaskIds().filter((id) => (patterns.length ? patterns.some((p) => id.startsWith(p)) : loadTask(id).spec.apps));
let bad = 0;
for (const id of ids) {
  const task = loadTask(id).spec;
  const scenes = (task.scenes ?? [task.scene]).slice(0, 2);
  for (const [app, entry] of Object.entries(task.apps ?? { reference: {} })) {
    for (const scene of scenes) {
      for (const hand of ['right', 'left']) {
        const r = await runSession({ task: id, app, scene, seed: 1, dominantHand: hand });
        const failed = r.milestones.filter((m) => !m.passed).map((m) => m.id).sort();
        const expected = [...(entry.expectFail ?? [])].sort();
        const ok = r.status !== 'errored' && JSON.stringify(failed) === JSON.stringify(expected);
        if (!ok) bad++;
        const detail = r.status === 'errored' ? r.error.message : r.milestones.filter((m) => !m.passed || expected.includes(m.id)).map((m) => `${m.passed ? 'pass' : 'FAIL'} ${m.id}=${m.metric === null ? 'never' : Number(m.metric.toPrecision(4))}`).join(' ');
        console.log(`${ok ? 'ok ' : 'BAD'} ${id} ${app} ${scene} ${hand}: ${detail}`);
      }
    }
  }
}
process.exitCode = bad ? 1 : 0;
