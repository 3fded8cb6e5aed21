// Two interrupted glances at the left target, then a long look at the centre one.
// Distractor: the glances are a look that does not dwell (0.6 s, away, 0.6 s again). An app that adds up
// gaze time instead of requiring it continuously selects the left target.
export default function* (a) {
  yield a.wait(0.5);
  yield a.head.lookAt(a.tag('target-left'));
  yield a.wait(0.6);
  yield a.head.lookAt(a.tag('target-right'));
  yield a.wait(0.3);
  yield a.head.lookAt(a.tag('target-left'));
  yield a.wait(0.6);
  yield a.head.lookAt(a.tag('target-centre'));
  yield a.wait(1.6);
  yield a.head.turn(0, -30);
}
