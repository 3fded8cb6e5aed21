// Look down at the table; carry a tray in under the ball at 2.5 s and raise it at 4 s.
// Distractor: the tray is a surface that appears late, then moves. An app that keeps the depth it saw at
// startup lets the ball sink into it.
export default function* (a) {
  yield a.head.turn(0, -45);
  yield a.wait(2.5 - 0.5);
  yield a.environment.addSurface({ id: 'tray', label: 'other', material: 'tray-plastic', position: [0, 0.015, -0.05], shape: { type: 'box', size: [0.3, 0.03, 0.3] } });
  yield a.wait(1.5);
  yield a.environment.moveSurface('scene:tray', [0, 0.08, -0.05]);
}
