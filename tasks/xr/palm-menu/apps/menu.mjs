// The palm menu and its variations: which joint it is anchored to, whether it hides, and how a press is told.
import { xr } from 'xrsim';

export function palmMenu({ anchorJoint = 'palm', hides = true, touch = 'distance' } = {}) {
  /** Palm centre, outward palm normal (OpenXR: the joints' +Y points out of the back of the hand). */
  const palmOf = (source) => {
    const palm = source.hand?.get('wrist') && source.hand.get(anchorJoint === 'palm' ? 'middle-finger-metacarpal' : 'wrist');
    if (!palm) return null;
    // WebXR has no palm joint: its centre is halfway along the middle metacarpal, and the wrist for the mistaken app.
    const base = xr.vec(source.hand.get('wrist').transform.position);
    const knuckle = xr.vec(source.hand.get('middle-finger-phalanx-proximal').transform.position);
    const centre = anchorJoint === 'palm' ? xr.lerp(base, knuckle, 0.5) : base;
    const normal = xr.scale(xr.axis(source.hand.get('middle-finger-metacarpal').transform, 'y'), -1);
    return { centre, normal };
  };
  return {
    setup(ctx) {
      ctx.state.menuHand = null;
      ctx.state.menu = null; // { position, normal } while shown
      ctx.state.pressed = false;
      ctx.tag('menu', 'palm-menu', () => (ctx.state.menu ? { position: ctx.state.menu.position, rotation: xr.facing(ctx.state.menu.normal) } : null));
    },
    frame(frame, ctx) {
      const s = ctx.state;
      const eyes = xr.vec(frame.viewerPose.transform.position);
      const facingHead = (palm) => xr.dot(palm.normal, xr.normalize(xr.sub(eyes, palm.centre))) > 0.6;
      const hands = frame.inputSources.filter((source) => source.hand);
      // The menu hand is the first one that shows its palm; the other hand presses.
      if (!s.menuHand) {
        const shown = hands.find((source) => {
          const palm = palmOf(source);
          return palm && facingHead(palm);
        });
        if (shown) s.menuHand = shown.handedness;
      }
      const source = hands.find((h) => h.handedness === s.menuHand);
      const palm = source ? palmOf(source) : null;
      const visible = palm && (!hides || facingHead(palm));
      const wasShown = s.menu !== null;
      s.menu = visible ? { position: xr.add(palm.centre, xr.scale(palm.normal, 0.03)), normal: palm.normal } : null;
      if (s.menu && !wasShown) ctx.emit('menu-shown');
      if (!s.menu) return;
      const presser = hands.find((h) => h.handedness !== s.menuHand);
      const tip = presser ? xr.joint(presser, 'index-finger-tip') : null;
      if (touch === 'box') {
        // A 7 cm box around the menu, in world axes: the tip inside it is a touch, outside it is not.
        const inside = tip !== null && xr.sub(tip, s.menu.position).every((v) => Math.abs(v) <= 0.035);
        if (inside && !s.pressed) ctx.emit('menu-pressed');
        s.pressed = inside;
        return;
      }
      const d = tip ? xr.distance(tip, s.menu.position) : Infinity;
      if (!s.pressed && d < 0.015) {
        s.pressed = true;
        ctx.emit('menu-pressed');
      } else if (s.pressed && d > 0.03) {
        s.pressed = false;
      }
    },
  };
}
