// Stand, glance aside and back, then turn around.
// Distractor: a 25° glance to the side for half a second. A glance is not a turn: a menu locked to the head
// swings away with it, while one that follows lazily stays put.
export default function* (a) {
  yield a.wait(1.2);
  yield a.head.turn(25, 0);
  yield a.wait(0.5);
  yield a.head.turn(0, 0);
  yield a.wait(0.3);
  yield a.head.turn(180, 0);
  yield a.wait(2);
}
