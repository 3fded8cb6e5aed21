/**
 * The hand's contact probes (the five fingertips and the palm) against the scene's static surfaces: the
 * deepest penetration, for the push-out, and each probe's contact report. One broad-phase pass gathers the
 * static primitives near the probes' bounding box, so each probe's query looks only at those.
 */
import { J } from '../../kernels/hand-fk.js';
import { PrimitiveKind, type SceneGeometry } from '../../kernels/scene-geometry.js';
import { gatherNear, signedDistanceAmong } from '../../kernels/sdf.js';

/** Joints that probe for contact with static surfaces: the five tips and the palm. */
export const CONTACT_PROBES = [J.ThumbTip, J.IndexTip, J.MiddleTip, J.RingTip, J.LittleTip, J.Palm] as const;

/** Where a tick's contacts are recorded: per probe, its distance, surface normal (3 each) and surface. */
export interface ContactReport {
  /** Signed distance from the skin to the nearest static surface (negative = penetration). */
  readonly distance: Float64Array;
  readonly normal: Float64Array;
  /** Index of the static object touched or in range, −1 for none. */
  readonly surface: Int32Array;
}

/** A hand's reusable probing scratch: nothing is allocated per tick once the scene's size is known. */
export class ContactProbes {
  /** After `deepest`: the deepest probe's surface normal. */
  readonly normal = new Float64Array(3);
  private readonly owner = new Int32Array(1);
  /** The probes' bounding box (min xyz, max xyz). */
  private readonly box = new Float64Array(6);
  /** The static primitives near the box. */
  private nearby = new Int32Array(16);

  /**
   * The deepest penetration of any probe (skin into surface; negative = clearance), looking `range`
   * beyond the skin, for joints at `positions` with skin radii `radius`. Leaves that probe's surface normal
   * in `normal`. With `report`, also stores every probe's distance, normal and surface there.
   */
  deepest(sdf: SceneGeometry, positions: Float32Array, radius: Float64Array | Float32Array, range: number, report: ContactReport | null = null): number {
    const box = this.box;
    box[0] = box[1] = box[2] = Infinity;
    box[3] = box[4] = box[5] = -Infinity;
    let reach = 0;
    for (let k = 0; k < CONTACT_PROBES.length; k++) {
      const j = CONTACT_PROBES[k];
      for (let a = 0; a < 3; a++) {
        const v = positions[j * 3 + a];
        if (v < box[a]) box[a] = v;
        if (v > box[a + 3]) box[a + 3] = v;
      }
      reach = Math.max(reach, radius[j] + range);
    }
    if (this.nearby.length < sdf.kindCount[PrimitiveKind.Static]) this.nearby = new Int32Array(sdf.ofKind[PrimitiveKind.Static].length);
    const near = gatherNear(sdf, PrimitiveKind.Static, box, reach, this.nearby);
    const normal = this.normal;
    const owner = this.owner;
    let deepest = -range;
    let nx = 0, ny = 0, nz = 0;
    for (let k = 0; k < CONTACT_PROBES.length; k++) {
      const j = CONTACT_PROBES[k];
      const d = signedDistanceAmong(sdf, this.nearby, near, positions[j * 3], positions[j * 3 + 1], positions[j * 3 + 2], radius[j] + range, normal, owner);
      if (report) {
        report.surface[k] = owner[0];
        report.distance[k] = owner[0] >= 0 ? d - radius[j] : range;
        report.normal[k * 3] = normal[0];
        report.normal[k * 3 + 1] = normal[1];
        report.normal[k * 3 + 2] = normal[2];
      }
      if (owner[0] >= 0 && radius[j] - d > deepest) {
        deepest = radius[j] - d;
        nx = normal[0];
        ny = normal[1];
        nz = normal[2];
      }
    }
    normal[0] = nx;
    normal[1] = ny;
    normal[2] = nz;
    return deepest;
  }
}
