// Raise the dominant hand, pinch (spawning the ball), carry it sideways, then throw it at the wall.
export default function* (a) {
  const hand = a.hand('dominant');
  yield a.wait(0.3);
  yield hand.reach(a.at(0, 0.3, 0.12), { with: 'pinch-point', duration: 0.8 });
  yield hand.pinch();
  yield hand.reach(a.at(0.06, 0.36, 0.06), { with: 'pinch-point', duration: 0.8 });
  yield hand.throw([0, 2.5, -3.0]);
  yield a.wait(0.3);
  yield hand.rest();
}
