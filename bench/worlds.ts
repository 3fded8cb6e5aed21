/**
 * Benchmark worlds: the empty lab without its props, plus exactly N task bodies (boxes and balls) dropped in
 * a grid over the open floor. They fall, collide, pile up and settle within the session, like real props.
 */
import { buildModel, loadScene, loadTask, type SceneSpec, type SimModel, type TaskSpec } from '../src/index.js';

/** The model of an N-body drop lasting `duration` seconds. */
export function dropModel(bodies: number, duration = 10): SimModel {
  const lab = loadScene('empty-lab').spec;
  const scene: SceneSpec = { ...lab, id: 'bench-empty-lab', props: [] };
  const columns = Math.ceil(Math.sqrt(bodies));
  const task: TaskSpec = {
    id: `bench/drop-${bodies}`,
    title: `${bodies} bodies dropped on the floor`,
    scene: scene.id,
    duration,
    placement: { anchor: 'open-floor', clear: [3, 2] },
    bodies: Array.from({ length: bodies }, (_, i) => {
      const row = Math.floor(i / columns);
      const column = i % columns;
      const layer = i % 3;
      return {
        id: `body-${i}`,
        mass: 0.5,
        friction: 0.5,
        restitution: 0.2,
        position: [-1.2 + (2.4 * column) / Math.max(1, columns - 1), 0.15 + 0.25 * layer, -0.8 + (1.6 * row) / Math.max(1, columns - 1)],
        eulerDeg: [0, (i * 37) % 90, 0],
        shape: i % 2 === 0 ? { type: 'box', size: [0.1, 0.1, 0.1] } : { type: 'sphere', radius: 0.05 },
      };
    }),
    validators: [
      {
        type: 'settle',
        bodies: Array.from({ length: bodies }, (_, i) => `task:body-${i}`),
        linearSpeedBelow: 0.01,
        milestones: [{ id: 'settles', threshold: duration }],
      },
    ],
  };
  return buildModel({ spec: scene, file: '<bench scene>' }, loadTask(task));
}
