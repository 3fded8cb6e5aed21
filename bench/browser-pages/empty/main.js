// The baseline of shim_frame_overhead: an empty page animation frame, driven through the same bridge.
requestAnimationFrame(function loop() {
  requestAnimationFrame(loop);
});
