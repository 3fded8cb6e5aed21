/**
 * What sessions reuse from one another in a process: tasks, scenes and hand models loaded from unchanged
 * files, the model built from the same inputs, the scene geometry store as built. None of it may let one
 * session affect another, or hide an edit to a file between sessions.
 */
import { appendFileSync, cpSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSession, loadTask, runSession } from '../src/index.js';
import { ROOT, tempDir } from './helpers/cli.js';

/** A copy of a suite task's folder, to edit (physics tasks: they import no modules). */
function copyTask(id: string): string {
  const dir = join(tempDir(), id.replace('/', '-'));
  cpSync(join(ROOT, 'tasks', id), dir, { recursive: true });
  return dir;
}

describe('sessions reuse what they can', () => {
  it('share one model for the same inputs, and their hashes do not depend on it', async () => {
    const spec = { task: 'physics/stack-settle', scene: 'kitchen', seed: 5 };
    const a = await createSession(spec);
    const b = await createSession({ ...spec, seed: 6, dominantHand: 'left' as const });
    expect(b.model).toBe(a.model);
    const first = await a.run();
    b.dispose();
    expect((await runSession(spec)).hash).toBe(first.hash);
    expect(loadTask('physics/stack-settle')).toBe(loadTask('physics/stack-settle'));
    expect(Object.isFrozen(loadTask('physics/stack-settle').spec.validators)).toBe(true);
  });

  it('start from the room as the model has it, whatever an earlier session added to it', async () => {
    const spec = { task: 'physics/rolling-ball-checkpoints', scene: 'empty-lab', seed: 1 };
    const before = await runSession(spec);
    const changed = await createSession(spec);
    changed.environment.addSurface({ id: 'ramp', label: 'other', material: 'painted-wood', position: [0, 0.05, 0], shape: { type: 'box', size: [2, 0.1, 2] } });
    const changedResult = await changed.run();
    expect(changedResult.hash).not.toBe(before.hash);
    expect((await runSession(spec)).hash).toBe(before.hash);
  });

  it('read a task file again when it changed, and never keep a broken one', async () => {
    const dir = copyTask('physics/rolling-ball-checkpoints');
    const file = join(dir, 'task.json');
    const original = readFileSync(file, 'utf8');
    const spec = { task: file, scene: 'empty-lab', seed: 1 };
    const first = await runSession(spec);
    expect(first.status).toBe('passed');
    writeFileSync(file, original.replace(/"duration": *[0-9.]+/, '"duration": 1'));
    const shorter = await runSession(spec);
    expect(shorter.ticks).toBe(90);
    writeFileSync(file, original.replace(/"duration": *[0-9.]+/, '"duration": -1'));
    const broken = await runSession(spec);
    expect(broken.status).toBe('errored');
    expect(broken.error?.message).toContain(file);
    writeFileSync(file, original);
    expect((await runSession(spec)).hash).toBe(first.hash);
  });

  it('see a same-size edit of a settled file whose modification time was put back', async () => {
    const dir = copyTask('physics/rolling-ball-checkpoints');
    const file = join(dir, 'task.json');
    const original = readFileSync(file, 'utf8');
    const duration = /"duration": *([0-9.]+)/.exec(original)![1];
    const sameSize = duration.replace(/[0-9]$/, (d) => String((Number(d) + 1) % 10)); // one digit changed
    const lastHour = Math.floor(Date.now() / 1000) - 3600; // whole seconds: set back exactly below
    utimesSync(file, lastHour, lastHour);
    // Unchanged for two seconds: its text is kept from now on (src/json/kept-texts.ts).
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const spec = { task: file, scene: 'empty-lab', seed: 1 };
    const first = await runSession(spec);
    const { size } = statSync(file);
    writeFileSync(file, original.replace(`"duration": ${duration}`, `"duration": ${sameSize}`));
    utimesSync(file, lastHour, lastHour);
    expect(statSync(file)).toMatchObject({ size, mtimeMs: lastHour * 1000 });
    const edited = await runSession(spec);
    expect(edited.ticks).toBe(Math.round(Number(sameSize) * 90));
    expect(edited.ticks).not.toBe(first.ticks);
  });

  it('build a new model when an app module changed', async () => {
    const app = join(tempDir(), 'app.mjs');
    writeFileSync(app, 'export function frame() {}\n');
    const spec = { task: 'xr/poke-button', scene: 'empty-lab', seed: 1, app };
    const before = await createSession(spec);
    before.dispose();
    appendFileSync(app, '// edited\n');
    const after = await createSession(spec);
    after.dispose();
    expect(after.model).not.toBe(before.model);
    expect(after.model.hash).not.toBe(before.model.hash);
  });
});
