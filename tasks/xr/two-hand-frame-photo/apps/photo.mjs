// The framing-photo app and its variations: what it captures, whether it captures once per gesture, and how
// long the hands must hold still.
import { xr } from 'xrsim';

const STEADY_SECONDS = 0.4;
const STEADY_METRES = 0.01;

export function framePhoto({ fixedRect = false, once = true, steadySeconds = STEADY_SECONDS } = {}) {
  return {
    setup(ctx) {
      ctx.state.armed = true;
      ctx.state.history = [];
    },
    frame(frame, ctx) {
      const s = ctx.state;
      const head = frame.viewerPose.transform;
      const tips = ['left', 'right'].map((side) => {
        const source = xr.handSource(frame.inputSources, side);
        return source ? xr.joint(source, 'index-finger-tip') : null;
      });
      // Framing: both tips tracked and apart across and up-down in the view.
      const [a, b] = tips;
      const right = xr.axis(head, 'x');
      const framing = a && b && Math.abs(xr.dot(xr.sub(b, a), right)) > 0.12 && Math.abs(b[1] - a[1]) > 0.06;
      if (!framing) {
        s.armed = true;
        s.history = [];
        return;
      }
      s.history.push({ t: frame.time, a, b });
      while (s.history.length > 0 && s.history[0].t < frame.time - steadySeconds) s.history.shift();
      const held = s.history[0].t <= frame.time - steadySeconds + 1e-6 && s.history.every((h) => xr.distance(h.a, a) < STEADY_METRES && xr.distance(h.b, b) < STEADY_METRES);
      if (!held || (once && !s.armed)) return;
      s.armed = false;
      let corners = [a, b];
      if (fixedRect) {
        const centre = xr.add(xr.vec(head.position), xr.scale(xr.forward(head), 0.4));
        corners = [xr.add(centre, xr.add(xr.scale(right, -0.1), [0, 0.07, 0])), xr.add(centre, xr.add(xr.scale(right, 0.1), [0, -0.07, 0]))];
      }
      ctx.emit('photo', { corners });
    },
  };
}
