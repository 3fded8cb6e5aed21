/**
 * Subjects: the points XR validators follow, named by reference (`task/references.ts`): a body
 * (`task:<id>`, `scene:<id>`), `tag:<role>` (the object the app tagged), `hand:<side>:<joint|pinch-point>`
 * (a reported hand joint, absent while untracked) or `head` (the eye centre).
 */
import { J } from '../../kernels/hand-fk.js';
import { HAND_JOINT_FLOATS, handTracked, POSE_FLOATS } from '../frame/layout.js';
import type { FrameView } from '../frame/frame.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import { OPENXR_JOINTS } from '../hand/joints.js';
import { sideOf, type Handedness } from '../hand/side.js';
import { bodyIndexOf } from '../model/references.js';
import type { SimModel } from '../model/types.js';
import { parseReference } from '../task/references.js';
import type { FrameState } from './frame-state.js';

/** A subject's position (and rotation, when it has one) in this frame, or null when absent. */
export type SubjectReader = (frame: FrameView) => { position: Vec3; rotation: Quat | null } | null;

/** What subject readers need. */
export interface SubjectContext {
  model: SimModel;
  dominantHand: Handedness;
  state: FrameState;
}

/** A reader for subject `text`. Throws `XrsimInputError` for a malformed or unknown subject. */
export function subjectReader(text: string, ctx: SubjectContext): SubjectReader {
  const ref = parseReference(text, { bare: 'task' });
  switch (ref.kind) {
    case 'head':
      return (frame) => {
        const h = frame.channel('head')!;
        return { position: [h[0], h[1], h[2]], rotation: [h[3], h[4], h[5], h[6]] };
      };
    case 'tag':
      return () => {
        const tag = ctx.state.tags.get(ref.role);
        // Copies: the frame state updates its arrays in place every frame.
        return tag?.present ? { position: [tag.position[0], tag.position[1], tag.position[2]], rotation: [tag.rotation[0], tag.rotation[1], tag.rotation[2], tag.rotation[3]] } : null;
      };
    case 'hand': {
      const channel = `hand-${sideOf(ref.side, ctx.dominantHand)}`;
      const joint = ref.point;
      const index = (OPENXR_JOINTS as readonly string[]).indexOf(joint);
      return (frame) => {
        const c = frame.channel(channel);
        if (!c || !handTracked(c)) return null;
        const at = (j: number): Vec3 => [c[j * HAND_JOINT_FLOATS], c[j * HAND_JOINT_FLOATS + 1], c[j * HAND_JOINT_FLOATS + 2]];
        if (joint === 'pinch-point') {
          const a = at(J.ThumbTip);
          const b = at(J.IndexTip);
          return { position: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2], rotation: null };
        }
        const o = index * HAND_JOINT_FLOATS;
        return { position: at(index), rotation: [c[o + 3], c[o + 4], c[o + 5], c[o + 6]] };
      };
    }
    default: {
      const index = bodyIndexOf(ctx.model, ref);
      return (frame) => {
        const p = frame.bodyPoses;
        const o = index * POSE_FLOATS;
        return { position: [p[o], p[o + 1], p[o + 2]], rotation: [p[o + 3], p[o + 4], p[o + 5], p[o + 6]] };
      };
    }
  }
}
