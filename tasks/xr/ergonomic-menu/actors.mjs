// Stand, then turn around.
export default function* (a) {
  yield a.wait(1.5);
  yield a.head.turn(180, 0);
  yield a.wait(2);
}
