/**
 * Moments from state (issue 37, item 3): `tag:<role>:appears`, `:disappears`, `:starts-moving` and
 * `:stops-moving`, added by the validators' frame state when a tag changes, so a check need not know what
 * a candidate app calls its events.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTask, runSession } from '../src/index.js';
import { MOVING_SPEED, STILL_SPEED, TagTriggers } from '../src/validate/tag-triggers.js';
import { XrSessionHandle } from '../src/vitest/session-handle.js';
import { ROOT } from './helpers/cli.js';

describe('tag triggers', () => {
  it('fire once per change: appears, starts and stops moving (with hysteresis), disappears', () => {
    const triggers = new TagTriggers();
    const tag = { role: 'ball', present: false, position: [0, 0, 0] };
    const names: string[][] = [];
    const at = (t: number, present: boolean, x = 0) => {
      tag.present = present;
      tag.position = [x, 0, 0];
      const events: { name: string }[] = [];
      triggers.update([tag], t, events);
      names.push(events.map((e) => e.name));
    };
    const dt = 0.1;
    at(0, false);
    at(dt, true, 0);
    at(2 * dt, true, 0.5 * MOVING_SPEED * dt); // slow: not yet moving
    at(3 * dt, true, 0.5 * MOVING_SPEED * dt + 2 * MOVING_SPEED * dt); // fast
    at(4 * dt, true, 0.5 * MOVING_SPEED * dt + 2 * MOVING_SPEED * dt + 0.5 * MOVING_SPEED * dt); // slower, above STILL_SPEED
    at(5 * dt, true, 0.5 * MOVING_SPEED * dt + 2.5 * MOVING_SPEED * dt + 0.5 * STILL_SPEED * dt); // below STILL_SPEED
    at(6 * dt, false);
    expect(names).toEqual([[], ['tag:ball:appears'], [], ['tag:ball:starts-moving'], [], ['tag:ball:stops-moving'], ['tag:ball:disappears']]);
  });

  it('come in a real session where the app shows the ball, and a check can be timed by them', async () => {
    const handle = await XrSessionHandle.open({ task: 'xr/pinch-spawn-ball', seed: 1 });
    await handle.finish();
    const appears = handle.events('tag:ball:appears');
    expect(appears).toHaveLength(1);
    expect(appears[0].tick).toBe(handle.events('app:ball-spawned')[0].tick);
    expect(handle.events('tag:ball:starts-moving').length).toBeGreaterThan(0);
    await handle.close();

    // The same distance check timed by the tag appearing instead of the app's own event: it passes for the
    // reference, whatever the reference calls its event.
    const { spec } = loadTask('xr/pinch-spawn-ball');
    const base = join(ROOT, 'tasks/xr/pinch-spawn-ball');
    const module = join(base, (spec.apps!.reference as { module: string }).module);
    const validators = spec.validators.map((v) => (v.type === 'distance-at' ? { ...v, at: 'tag:ball:appears', occurrence: 'each' } : v));
    const result = await runSession({ task: { ...spec, actors: join(base, spec.actors!), apps: { reference: { module } }, validators }, seed: 1 });
    expect(result.status).toBe('passed');
  });
});
