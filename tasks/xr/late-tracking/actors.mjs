// The hands appear at 2 s (the task's tracking.handsFrom); then both hands move in front of the user.
// Distractor: the left hand drops out of tracking for 0.4 s while the hands move. The right cursor must not
// notice: an app that tells the hands apart by their order in inputSources loses it.
export default function* (a) {
  yield a.wait(2.1);
  yield [a.hand('right').reach(a.at(0.12, 0.3, 0.1), { duration: 0.8 }), a.hand('left').reach(a.at(-0.12, 0.3, 0.1), { duration: 0.8 })];
  yield a.hand('left').track(false);
  yield [a.hand('right').reach(a.at(0.05, 0.35, 0.05), { duration: 0.6 }), a.hand('left').reach(a.at(-0.05, 0.35, 0.05), { duration: 0.6 }), a.sequence(a.wait(0.4), a.hand('left').track(true))];
}
