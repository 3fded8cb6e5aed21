// The ergonomic menu and its variations: how far it spawns, and how it follows the gaze (lazily, never, or
// locked to the head).
import { xr } from 'xrsim';

export function ergonomicMenu({ distance = 0.45, follows = 'lazily' } = {}) {
  const placeFor = (head) => xr.add(xr.vec(head.position), xr.add(xr.scale(xr.flatForward(head), distance), [0, -0.25, 0]));
  return {
    setup(ctx) {
      ctx.state.menu = null;
      ctx.state.following = false;
      ctx.tag('menu', 'main-menu', () => (ctx.state.menu ? { position: ctx.state.menu, rotation: ctx.state.rotation } : null));
    },
    frame(frame, ctx) {
      const s = ctx.state;
      const head = frame.viewerPose.transform;
      if (!s.menu) {
        if (frame.time < 0.5) return;
        s.menu = placeFor(head);
      } else if (follows === 'head-locked') {
        s.menu = placeFor(head);
      } else if (follows === 'lazily') {
        // Lazy follow: start when the gaze is 40° off, settle when it is back within 5°.
        const toMenu = xr.normalize([s.menu[0] - head.position.x, 0, s.menu[2] - head.position.z]);
        const off = (Math.acos(Math.max(-1, Math.min(1, xr.dot(toMenu, xr.flatForward(head))))) * 180) / Math.PI;
        if (off > 40) s.following = true;
        if (s.following) {
          s.menu = xr.lerp(s.menu, placeFor(head), Math.min(1, 5 * ctx.dt));
          if (off < 5) s.following = false;
        }
      }
      const back = xr.normalize(xr.sub(xr.vec(head.position), s.menu));
      s.rotation = xr.facing([back[0], 0, back[2]]);
    },
  };
}
