// The hands appear at 2 s (the task's tracking.handsFrom); then both hands move in front of the user.
export default function* (a) {
  yield a.wait(2.1);
  yield [a.hand('right').reach(a.at(0.12, 0.3, 0.1), { duration: 0.8 }), a.hand('left').reach(a.at(-0.12, 0.3, 0.1), { duration: 0.8 })];
  yield [a.hand('right').reach(a.at(0.05, 0.35, 0.05), { duration: 0.6 }), a.hand('left').reach(a.at(-0.05, 0.35, 0.05), { duration: 0.6 })];
}
