// The gaze-dwell app and its variations: whether dwell resets, and which ray is the gaze.
import { xr } from 'xrsim';

const DWELL = 1.0;
const HIT_DEGREES = 4;
const NAMES = ['left', 'centre', 'right'];

export function dwellSelect({ resets = true, gaze = 'head' } = {}) {
  return {
    setup(ctx) {
      ctx.state.targets = null;
      ctx.state.dwell = [0, 0, 0];
      ctx.state.selected = null;
    },
    frame(frame, ctx) {
      const s = ctx.state;
      const head = frame.viewerPose.transform;
      if (!s.targets) {
        const front = xr.flatForward(head);
        const right = xr.normalize(xr.cross(front, [0, 1, 0]));
        const centre = xr.add(xr.vec(head.position), xr.scale(front, 0.8));
        s.targets = [-0.35, 0, 0.35].map((dx) => xr.add(centre, xr.scale(right, dx)));
        s.targets.forEach((p, i) => ctx.tag(`target-${NAMES[i]}`, `target-${i}`, () => p));
        ctx.tag('selected', 'selected', () => (s.selected === null ? null : s.targets[s.selected]));
      }
      const origin = xr.vec(head.position);
      const direction = gaze === 'head' ? xr.forward(head) : [0, 0, -1];
      s.targets.forEach((p, i) => {
        const angle = (Math.acos(Math.max(-1, Math.min(1, xr.dot(xr.normalize(xr.sub(p, origin)), direction)))) * 180) / Math.PI;
        if (angle <= HIT_DEGREES) {
          s.dwell[i] += ctx.dt;
          if (s.dwell[i] >= DWELL - 1e-9) {
            s.selected = i;
            s.dwell[i] = -Infinity; // selected: no repeat until looked away from
            ctx.emit('dwell-select', { target: NAMES[i] });
          }
        } else if (resets) {
          s.dwell[i] = 0;
        } else if (s.dwell[i] === -Infinity) {
          s.dwell[i] = 0;
        }
      });
    },
  };
}
