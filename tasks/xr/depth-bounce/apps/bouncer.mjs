// The depth-bounce app and its variations: which depth it trusts. The ball is the app's own: it falls and
// bounces by the app's arithmetic, and only depth frames say where surfaces are.
import { xr } from 'xrsim';

const RADIUS = 0.03;
const GRAVITY = 9.81;
const RESTITUTION = 0.75;

export function bouncer({ depth = 'live' } = {}) {
  return {
    setup(ctx) {
      ctx.state.ball = null;
      ctx.tag('ball', 'ball', () => ctx.state.ball?.p ?? null);
    },
    frame(frame, ctx) {
      const s = ctx.state;
      const dt = ctx.dt;
      if (!s.ball) {
        if (frame.time < 0.5) return;
        const head = frame.viewerPose.transform;
        s.ball = { p: xr.add(xr.vec(head.position), xr.add(xr.scale(xr.flatForward(head), 0.4), [0, -0.2, 0])), v: [0, 0, 0] };
      }
      const info = frame.getDepthInformation();
      if (depth === 'startup' && info && !s.firstDepth) s.firstDepth = info;
      const seen = depth === 'live' ? info : depth === 'startup' ? s.firstDepth : null;
      const b = s.ball;
      b.v = [b.v[0], b.v[1] - GRAVITY * dt, b.v[2]];
      b.p = xr.add(b.p, xr.scale(b.v, dt));
      const bottom = xr.sub(b.p, [0, RADIUS, 0]);
      let below = 0; // how far the ball's bottom is inside a surface, vertically
      if (seen) {
        const d = xr.depthAt(seen, bottom);
        // Behind the measured surface along the line of sight: convert to a vertical overlap.
        if (d && d.point > d.surface) below = (d.point - d.surface) * Math.abs(xr.forward(seen.transform)[1]);
      } else if (bottom[1] < 0) {
        below = -bottom[1];
      }
      if (below > 0 && b.v[1] < 0) {
        b.p = xr.add(b.p, [0, below, 0]);
        b.v = [b.v[0], -b.v[1] * RESTITUTION, b.v[2]];
        // A ball too slow to leave the surface comes to rest and is thrown up again, as a toy would be.
        if (b.v[1] < 0.6) b.v = [b.v[0], 2.2, b.v[2]];
        ctx.emit('bounce');
      }
    },
  };
}
