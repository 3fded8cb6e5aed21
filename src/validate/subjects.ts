/**
 * Subjects: the points XR validators follow, named in task files.
 * - `<body id>` or `body:<id>`: a task body; `scene:<id>`: a scene prop;
 * - `tag:<role>`: the object the app tagged with that role;
 * - `hand:<dominant|other|left|right>:<joint|pinch-point>`: a reported hand joint (absent while untracked);
 * - `head`: the eye centre.
 */
import { HAND_CHANNEL_FLOATS, HAND_JOINT_FLOATS } from '../frame/layout.js';
import type { FrameView } from '../frame/frame.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import type { SimModel } from '../model/types.js';
import type { Handedness } from '../session/spec.js';
import { OPENXR_JOINTS } from '../user/joints.js';
import type { FrameState } from './frame-state.js';

/** A subject's position (and rotation, when it has one) in this frame, or null when absent. */
export type SubjectReader = (frame: FrameView) => { position: Vec3; rotation: Quat | null } | null;

/** What subject readers need. */
export interface SubjectContext {
  model: SimModel;
  dominantHand: Handedness;
  state: FrameState;
}

/** Whether a subject name is well formed (for task validation). */
export function subjectProblem(ref: string, model: SimModel | null): string | null {
  if (ref === 'head') return null;
  if (ref.startsWith('tag:')) return ref.length > 4 ? null : 'a tag subject needs a role: tag:<role>';
  if (ref.startsWith('hand:')) {
    const [, side, joint] = ref.split(':');
    if (!['dominant', 'other', 'left', 'right'].includes(side)) return `unknown hand "${side}": use dominant, other, left or right`;
    if (joint !== 'pinch-point' && !(OPENXR_JOINTS as readonly string[]).includes(joint)) return `unknown joint "${joint}": an OpenXR joint name or pinch-point`;
    return null;
  }
  if (model && bodyIndex(model, ref) < 0) return `no body "${ref}"`;
  return null;
}

function bodyIndex(model: SimModel, ref: string): number {
  const [origin, id] = ref.startsWith('scene:') ? ['scene', ref.slice(6)] : ['task', ref.replace(/^body:/, '').replace(/^task:/, '')];
  return model.bodies.findIndex((b) => b.origin === origin && b.id === id);
}

/** A reader for subject `ref`. Throws for an unknown subject. */
export function subjectReader(ref: string, ctx: SubjectContext): SubjectReader {
  const problem = subjectProblem(ref, ctx.model);
  if (problem) throw new Error(`validator subject "${ref}": ${problem}`);
  if (ref === 'head') {
    return (frame) => {
      const h = frame.channel('head')!;
      return { position: [h[0], h[1], h[2]], rotation: [h[3], h[4], h[5], h[6]] };
    };
  }
  if (ref.startsWith('tag:')) {
    const role = ref.slice(4);
    return () => {
      const tag = ctx.state.tags.get(role);
      // Copies: the frame state updates its arrays in place every frame.
      return tag?.present ? { position: [tag.position[0], tag.position[1], tag.position[2]], rotation: [tag.rotation[0], tag.rotation[1], tag.rotation[2], tag.rotation[3]] } : null;
    };
  }
  if (ref.startsWith('hand:')) {
    const [, side, joint] = ref.split(':');
    const left = side === 'left' || (side === 'dominant' && ctx.dominantHand === 'left') || (side === 'other' && ctx.dominantHand === 'right');
    const channel = left ? 'hand-left' : 'hand-right';
    const index = (OPENXR_JOINTS as readonly string[]).indexOf(joint);
    return (frame) => {
      const c = frame.channel(channel);
      if (!c || c[HAND_CHANNEL_FLOATS - 1] !== 1) return null;
      const at = (j: number): Vec3 => [c[j * HAND_JOINT_FLOATS], c[j * HAND_JOINT_FLOATS + 1], c[j * HAND_JOINT_FLOATS + 2]];
      if (joint === 'pinch-point') {
        const a = at(5);
        const b = at(10);
        return { position: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2], rotation: null };
      }
      const o = index * HAND_JOINT_FLOATS;
      return { position: at(index), rotation: [c[o + 3], c[o + 4], c[o + 5], c[o + 6]] };
    };
  }
  const index = bodyIndex(ctx.model, ref);
  return (frame) => {
    const p = frame.bodyPoses;
    const o = index * 7;
    return { position: [p[o], p[o + 1], p[o + 2]], rotation: [p[o + 3], p[o + 4], p[o + 5], p[o + 6]] };
  };
}
