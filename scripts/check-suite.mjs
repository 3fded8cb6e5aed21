#!/usr/bin/env node
// Development helper: runs the apps of the given tasks (default: every task with apps) and prints where
// verdicts differ from what the task declares. By default: every app, both hands, the task's first two
// scenes, seed 1. `--reference-everywhere`: the reference app only, in every listed scene, seeds 1-3
// (what the default sweep runs). `--all-scenes`: every app in every listed scene.
// Usage: node scripts/check-suite.mjs [--reference-everywhere | --all-scenes] [task-prefix...]
import { listTaskIds, loadTask, runSession } from 'xrsim';

const everywhere = process.argv.includes('--reference-everywhere');
const allScenes = process.argv.includes('--all-scenes');
const patterns = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const ids = listTaskIds().filter((id) => (patterns.length ? patterns.some((p) => id.startsWith(p)) : everywhere || loadTask(id).spec.apps));
let bad = 0;
for (const id of ids) {
  const task = loadTask(id).spec;
  const scenes = everywhere || allScenes ? (task.scenes ?? [task.scene]) : (task.scenes ?? [task.scene]).slice(0, 2);
  const apps = everywhere ? { reference: task.apps?.reference ?? {} } : (task.apps ?? { reference: {} });
  for (const [app, entry] of Object.entries(apps)) {
    for (const scene of scenes) {
      for (const seed of everywhere ? [1, 2, 3] : [1]) {
        for (const hand of ['right', 'left']) {
          const r = await runSession({ task: id, ...(task.apps ? { app } : {}), scene, seed, dominantHand: hand });
          const failed = r.milestones.filter((m) => !m.passed).map((m) => m.id).sort();
          const expected = [...(entry.expectFail ?? [])].sort();
          const ok = r.status !== 'errored' && JSON.stringify(failed) === JSON.stringify(expected);
          if (!ok) bad++;
          const detail = r.status === 'errored' ? r.error.message : r.milestones.filter((m) => !m.passed || expected.includes(m.id)).map((m) => `${m.passed ? 'pass' : 'FAIL'} ${m.id}=${m.metric === null ? 'never' : Number(m.metric.toPrecision(4))}`).join(' ');
          console.log(`${ok ? 'ok ' : 'BAD'} ${id} ${app} ${scene} seed ${seed} ${hand}: ${detail}`);
        }
      }
    }
  }
}
process.exitCode = bad ? 1 : 0;
