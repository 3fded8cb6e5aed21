// Embedding xrsim in your own harness: run, step, perturb, record, read back.
// Run it from the repository root after `npm install`: node docs/examples/embed.mjs
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSession, runSession, StreamReader, verifyStream } from 'xrsim';

// 1. One call. Bad input or a crash would come back as status "errored" with a reason.
const result = await runSession({ task: 'physics/stack-settle', scene: 'office', seed: 3 });
console.log(`${result.task} in ${result.scene}: ${result.status}, score ${result.score}, hash ${result.hash}`);

// 2. Step it yourself, record it, and nudge the ball deterministically after tick 100.
const path = join(mkdtempSync(join(tmpdir(), 'xrsim-example-')), 'ball.xrs');
const session = await createSession({ task: 'physics/rolling-ball-checkpoints', seed: 1, record: { path } });
let sensorEntries = 0;
while (!session.done) {
  const frame = session.step();
  if (frame.tick === 100) session.applyImpulse('task:ball', [0, 0, 0.005]);
  for (let i = 0; i < frame.eventWords; i += 1 + (frame.events[i] & 0xffff)) if (frame.events[i] >>> 16 === 3) sensorEntries++;
}
const nudged = session.finish();
for (const m of nudged.milestones) console.log(`  ${m.passed ? 'pass' : 'FAIL'} ${m.id}: ${m.metric} (threshold ${m.threshold})`);
console.log(`  ${sensorEntries} sensor entries`);

// 3. Read the stream back: one body's track over time, and a single frame.
const reader = StreamReader.open(path);
const track = reader.poseTrack('bodies', 'task:ball');
const last = reader.frames - 1;
console.log(`ball ends at x=${track[last * 7].toFixed(3)} m after ${reader.frames} frames`);
reader.close();

// 4. The nudge is in the recording but not in the spec, so re-running the spec diverges at tick 101,
//    the first frame the nudge changed.
const report = await verifyStream(path);
console.log(report.identical ? 'identical' : `diverges at tick ${report.firstDivergence.tick} in ${report.firstDivergence.channel}`);
