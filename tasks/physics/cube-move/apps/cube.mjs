// The cube-move app and its variations: how the stick maps to the world, and when a jump is allowed.
import { xr } from 'xrsim';

const SIZE = 0.2;
const SPEED = 1.0;
const JUMP_SPEED = 3.0;

export function cubeMove({ invertForward = false, groundedJumpsOnly = true } = {}) {
  return {
    setup(ctx) {
      ctx.state.cube = null;
      ctx.state.aWasDown = false;
      ctx.tag('cube', 'cube', () => ctx.state.cube?.position() ?? null);
    },
    frame(frame, ctx) {
      const s = ctx.state;
      if (!s.cube) {
        const head = frame.viewerPose.transform;
        const at = xr.add([head.position.x, SIZE / 2, head.position.z], xr.scale(xr.flatForward(head), 0.9));
        s.cube = ctx.addBody('cube', { shape: { type: 'box', size: [SIZE, SIZE, SIZE] }, position: at, mass: 1, friction: 0.0, restitution: 0 });
      }
      const pads = frame.inputSources.filter((source) => source.gamepad);
      if (pads.length === 0) return;
      // Either controller drives the cube: the stick pushed furthest wins.
      const pad = pads.reduce((best, p) => (Math.hypot(p.gamepad.axes[2], p.gamepad.axes[3]) > Math.hypot(best.gamepad.axes[2], best.gamepad.axes[3]) ? p : best));
      const [, , x, y] = pad.gamepad.axes;
      const v = s.cube.linearVelocity();
      // xr-standard: thumbstick x right-positive, y forward-negative. Forward moves +Z here (the task's convention).
      const vz = (invertForward ? y : -y) * SPEED;
      s.cube.setVelocity([x * SPEED, v[1], vz]);
      const aDown = pads.some((p) => p.gamepad.buttons[4].pressed);
      if (aDown && !s.aWasDown) {
        const grounded = s.cube.touching().some((surface) => surface.label === 'floor') && Math.abs(v[1]) < 0.05;
        if (grounded || !groundedJumpsOnly) {
          s.cube.setVelocity([x * SPEED, JUMP_SPEED, vz]);
          ctx.emit('jump');
        } else {
          ctx.emit('jump-rejected');
        }
      }
      s.aWasDown = aDown;
    },
  };
}
