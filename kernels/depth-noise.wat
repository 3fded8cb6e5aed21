;; The depth noise pass in WebAssembly SIMD, the source of kernels/depth-noise-wasm.ts (`npm run wasm`;
;; a test checks the committed bytes match). It computes exactly what measureDepthReference in
;; depth-noise.ts computes for a whole frame; depth-noise-simd.ts copies the frame in and out, and the JS
;; finishes the few pixels listed for it (tail draws of the ziggurat: Math.log) and draws the dropouts.
;;
;; Passes: (1) a vector pass measures four pixels at a time as if none were mixed, grazing or a ziggurat
;; rejection, and lists the lanes that may be (a branch-free packed store); (2) a scalar loop draws the
;; error again for rejected plain pixels; (3) a scalar loop measures the mixed and grazing candidates (and
;; rejections among them) from scratch, as the reference does. The vector loop calls nothing (a call in it,
;; even a rare one, makes V8 spill its vectors on every group) and draws a group ahead (it is latency-bound).
;;
;; Bit-identity: hashing is i32x4 or i32 (wrapping multiply, shifts, xor: Math.imul and >>>), and every value
;; the reference computes in f64 is computed in f64 here with the same operations in the same order (+, -,
;; *, / and the conversions are exact IEEE in both). Tests made otherwise are exact or only pick candidates:
;;  - range and grazing: an f32 c is below an f64 x exactly when c is below the least f32 >= x, so
;;    `cos < grazingCosStart`, `z < minRange` and `z > maxRange` are exact in f32 (the JS rounds them);
;;  - "may be an edge": |n - z| > edgeLo in f32, edgeLo an f32 a little below edgeStep, holds wherever the
;;    f64 test does (an f32 difference is within 2^-24 of the exact one); it picks the lanes whose mixed
;;    draw is then compared with mixedPixel (as h < ceil(mixedPixel 2^32)), tested exactly by pass (3);
;;  - with bias1 = sigma0 = sigma1 = 0 the error leaves out the zero terms: they change only the sign of a
;;    zero, which z + (+-0) does not see;
;;  - rejections: the wedge test F[l] + U (F[l-1] - F[l]) < Math.exp(-x^2/2) uses $exp (within a relative
;;    1e-12) and decides only outside a margin of 1e-9; closer calls and the tail go to JS.
;;
;; Memory (the JS fills the tables): the ziggurat's table at 0 (128 entries of 16 bytes: W as f64, then K
;; as i32), F (128 f64) at 2048, the lane-packing table at 3200 (16 x i32x4); the buffers wherever the JS
;; puts them (depth with 16 bytes to spare on both sides, the lists with 16 bytes to spare at their ends).
(module
  (memory (export "memory") 1)

  ;; Murmur3's 32-bit finaliser (counter-rng.ts's mix32).
  (func $mix32 (param $x i32) (result i32)
    (local.set $x (i32.xor (local.get $x) (i32.shr_u (local.get $x) (i32.const 16))))
    (local.set $x (i32.mul (local.get $x) (i32.const 0x85ebca6b)))
    (local.set $x (i32.xor (local.get $x) (i32.shr_u (local.get $x) (i32.const 13))))
    (local.set $x (i32.mul (local.get $x) (i32.const 0xc2b2ae35)))
    (i32.xor (local.get $x) (i32.shr_u (local.get $x) (i32.const 16))))

  ;; A mixed pixel (its draw u is below mixedPixel): the reference's edge test and blend, in f64. $p is the
  ;; address of depth[i]; $up and $down the byte offsets of the rows above and below (0 at the image's edge).
  (func $blend (param $p i32) (param $hasLeft i32) (param $hasRight i32) (param $up i32) (param $down i32)
      (param $z f64) (param $u f64) (param $edgeStep f64) (param $mixedPixel f64) (result f64)
    (local $left f64) (local $right f64) (local $above f64) (local $below f64) (local $step f64) (local $c f64)
    (local.set $left (select (f64.promote_f32 (f32.load (i32.sub (local.get $p) (i32.const 4)))) (local.get $z) (local.get $hasLeft)))
    (local.set $right (select (f64.promote_f32 (f32.load (i32.add (local.get $p) (i32.const 4)))) (local.get $z) (local.get $hasRight)))
    (local.set $above (f64.promote_f32 (f32.load (i32.add (local.get $p) (local.get $up)))))
    (local.set $below (f64.promote_f32 (f32.load (i32.add (local.get $p) (local.get $down)))))
    (if (i32.eqz (i32.or
          (i32.or (f64.gt (f64.abs (f64.sub (local.get $left) (local.get $z))) (local.get $edgeStep))
                  (f64.gt (f64.abs (f64.sub (local.get $right) (local.get $z))) (local.get $edgeStep)))
          (i32.or (f64.gt (f64.abs (f64.sub (local.get $above) (local.get $z))) (local.get $edgeStep))
                  (f64.gt (f64.abs (f64.sub (local.get $below) (local.get $z))) (local.get $edgeStep)))))
      (then (return (local.get $z))))
    ;; The neighbour across the largest step; neighbours with no surface (Infinity) do not count. (Selects
    ;; of the bits, not branches: which neighbour wins is a coin toss.)
    (local.set $step (f64.const 0))
    (local.set $c (f64.sub (local.get $left) (local.get $z)))
    (local.set $step (f64.reinterpret_i64 (select (i64.reinterpret_f64 (local.get $c)) (i64.reinterpret_f64 (local.get $step))
      (i32.and (f64.ne (local.get $c) (f64.const inf)) (f64.gt (f64.abs (local.get $c)) (f64.abs (local.get $step)))))))
    (local.set $c (f64.sub (local.get $right) (local.get $z)))
    (local.set $step (f64.reinterpret_i64 (select (i64.reinterpret_f64 (local.get $c)) (i64.reinterpret_f64 (local.get $step))
      (i32.and (f64.ne (local.get $c) (f64.const inf)) (f64.gt (f64.abs (local.get $c)) (f64.abs (local.get $step)))))))
    (local.set $c (f64.sub (local.get $above) (local.get $z)))
    (local.set $step (f64.reinterpret_i64 (select (i64.reinterpret_f64 (local.get $c)) (i64.reinterpret_f64 (local.get $step))
      (i32.and (f64.ne (local.get $c) (f64.const inf)) (f64.gt (f64.abs (local.get $c)) (f64.abs (local.get $step)))))))
    (local.set $c (f64.sub (local.get $below) (local.get $z)))
    (local.set $step (f64.reinterpret_i64 (select (i64.reinterpret_f64 (local.get $c)) (i64.reinterpret_f64 (local.get $step))
      (i32.and (f64.ne (local.get $c) (f64.const inf)) (f64.gt (f64.abs (local.get $c)) (f64.abs (local.get $step)))))))
    (if (result f64) (f64.gt (f64.abs (local.get $step)) (local.get $edgeStep))
      (then (f64.add (local.get $z) (f64.mul (f64.div (local.get $u) (local.get $mixedPixel)) (local.get $step))))
      (else (local.get $z))))

  ;; A grazing pixel (cos < grazingCosStart): −1 if it is a hole, else 0; the reference's test in f64.
  (func $graze (param $i i32) (param $cos f64) (param $gm i32) (param $go i32) (param $gFull f64) (param $gStart f64) (param $gSpan f64) (result i32)
    (if (f64.lt (local.get $cos) (local.get $gFull)) (then (return (i32.const -1))))
    (i32.sub (i32.const 0) (f64.lt
      (f64.mul (f64.convert_i32_u (call $mix32 (i32.add (i32.mul (local.get $i) (local.get $gm)) (local.get $go)))) (f64.const 0x1p-32))
      (f64.div (f64.sub (local.get $gStart) (local.get $cos)) (local.get $gSpan)))))

;; e^y for y in [-6, 0] within a relative 1e-12: y = k ln 2 + r with |r| <= ln 2 / 2, e^r by its Taylor
  ;; series to r^10 (remainder below 3e-13), evaluated in a few independent chains, times 2^k.
  (func $exp (param $y f64) (result f64)
    (local $k f64) (local $r f64) (local $r2 f64) (local $r4 f64)
    (local.set $k (f64.nearest (f64.mul (local.get $y) (f64.const 1.4426950408889634))))
    (local.set $r (f64.sub (f64.sub (local.get $y) (f64.mul (local.get $k) (f64.const 0.6931471805599453))) (f64.mul (local.get $k) (f64.const 2.3190468138462996e-17))))
    (local.set $r2 (f64.mul (local.get $r) (local.get $r)))
    (local.set $r4 (f64.mul (local.get $r2) (local.get $r2)))
    (f64.mul
      (f64.add
        (f64.add
          (f64.add (f64.const 1) (local.get $r))
          (f64.mul (local.get $r2) (f64.add (f64.const 0.5) (f64.mul (local.get $r) (f64.const 0.16666666666666666)))))
        (f64.mul (local.get $r4)
          (f64.add
            (f64.add
              (f64.add (f64.const 4.1666666666666664e-2) (f64.mul (local.get $r) (f64.const 8.333333333333333e-3)))
              (f64.mul (local.get $r2) (f64.add (f64.const 1.388888888888889e-3) (f64.mul (local.get $r) (f64.const 1.984126984126984e-4)))))
            (f64.mul (local.get $r4)
              (f64.add (f64.add (f64.const 2.48015873015873e-5) (f64.mul (local.get $r) (f64.const 2.7557319223985893e-6)))
                (f64.mul (local.get $r2) (f64.const 2.755731922398589e-7)))))))
      (f64.reinterpret_i64 (i64.shl (i64.add (i64.trunc_f64_s (local.get $k)) (i64.const 1023)) (i64.const 52)))))

  ;; counter-rng.ts's normalSlow(h) for a rejected draw h, or NaN where this cannot decide it exactly: the
  ;; tail (layer 0, which needs Math.log) and a wedge test too close to call. The wedge test
  ;; F[l] + U (F[l-1] - F[l]) < Math.exp(-x^2/2) is decided with $exp and a margin of 1e-9, far above the
  ;; error of either exponential (Math.exp is within 1 ulp), so it decides as Math.exp would.
  (func $normalSlow (param $h i32) (result f64)
    (local $state i32) (local $layer i32) (local $m i32) (local $x f64) (local $lhs f64) (local $e f64)
    (local.set $state (i32.xor (local.get $h) (i32.const 0x68e31da4)))
    (loop $draws
      (local.set $layer (i32.and (local.get $h) (i32.const 127)))
      (local.set $m (i32.shr_s (local.get $h) (i32.const 7)))
      (local.set $x (f64.mul (f64.convert_i32_s (local.get $m)) (f64.load (i32.shl (local.get $layer) (i32.const 4)))))
      (if (i32.lt_s (select (local.get $m) (i32.sub (i32.const 0) (local.get $m)) (i32.ge_s (local.get $m) (i32.const 0)))
                    (i32.load offset=8 (i32.shl (local.get $layer) (i32.const 4))))
        (then (return (local.get $x))))
      (if (i32.eqz (local.get $layer)) (then (return (f64.const nan))))
      (local.set $state (i32.add (local.get $state) (i32.const 0x9e3779b9)))
      (local.set $lhs (f64.add (f64.load offset=2048 (i32.shl (local.get $layer) (i32.const 3)))
        (f64.mul
          (f64.add (f64.mul (f64.convert_i32_u (call $mix32 (local.get $state))) (f64.const 0x1p-32)) (f64.const 0x1p-33))
          (f64.sub (f64.load offset=2040 (i32.shl (local.get $layer) (i32.const 3))) (f64.load offset=2048 (i32.shl (local.get $layer) (i32.const 3)))))))
      (local.set $e (call $exp (f64.mul (f64.mul (f64.const -0.5) (local.get $x)) (local.get $x))))
      (if (f64.lt (local.get $lhs) (f64.mul (local.get $e) (f64.const 0.999999999))) (then (return (local.get $x))))
      (if (i32.eqz (f64.gt (local.get $lhs) (f64.mul (local.get $e) (f64.const 1.000000001)))) (then (return (f64.const nan))))
      (local.set $state (i32.add (local.get $state) (i32.const 0x9e3779b9)))
      (local.set $h (call $mix32 (local.get $state)))
      (br $draws))
    (unreachable))

;; $normalSlow for a rejected draw h (|m| >= K) without a branch, for the common cases: the wedge test
  ;; accepts x, or rejects it and the next draw takes the fast path. Anything else (the tail, a second
  ;; rejection, a test too close to call) returns NaN, and the caller asks $normalSlow. Branches here would
  ;; be mispredicted about half the time (the wedge test is a coin toss), and a select costs less.
  (func $wedgeOnce (param $h i32) (result f64)
    (local $state i32) (local $layer i32) (local $x f64) (local $lhs f64) (local $e f64) (local $h2 i32) (local $m2 i32) (local $t2 i32)
    (local.set $layer (i32.and (local.get $h) (i32.const 127)))
    ;; The tail (layer 0) needs Math.log.
    (if (i32.eqz (local.get $layer)) (then (return (f64.const nan))))
    (local.set $x (f64.mul (f64.convert_i32_s (i32.shr_s (local.get $h) (i32.const 7))) (f64.load (i32.shl (local.get $layer) (i32.const 4)))))
    (local.set $state (i32.add (i32.xor (local.get $h) (i32.const 0x68e31da4)) (i32.const 0x9e3779b9)))
    (local.set $lhs (f64.add (f64.load offset=2048 (i32.shl (local.get $layer) (i32.const 3)))
      (f64.mul
        (f64.add (f64.mul (f64.convert_i32_u (call $mix32 (local.get $state))) (f64.const 0x1p-32)) (f64.const 0x1p-33))
        (f64.sub (f64.load offset=2040 (i32.shl (local.get $layer) (i32.const 3))) (f64.load offset=2048 (i32.shl (local.get $layer) (i32.const 3)))))))
    (local.set $e (call $exp (f64.mul (f64.mul (f64.const -0.5) (local.get $x)) (local.get $x))))
    ;; The next draw, should the test reject x.
    (local.set $h2 (call $mix32 (i32.add (local.get $state) (i32.const 0x9e3779b9))))
    (local.set $m2 (i32.shr_s (local.get $h2) (i32.const 7)))
    (local.set $t2 (i32.shl (i32.and (local.get $h2) (i32.const 127)) (i32.const 4)))
    (f64.reinterpret_i64 (select
      (i64.reinterpret_f64 (local.get $x))
      (select
        (i64.reinterpret_f64 (f64.mul (f64.convert_i32_s (local.get $m2)) (f64.load (local.get $t2))))
        (i64.const 0x7ff8000000000000)
        (i32.and
          (f64.gt (local.get $lhs) (f64.mul (local.get $e) (f64.const 1.000000001)))
          (i32.lt_s (select (local.get $m2) (i32.sub (i32.const 0) (local.get $m2)) (i32.ge_s (local.get $m2) (i32.const 0))) (i32.load offset=8 (local.get $t2)))))
      (f64.lt (local.get $lhs) (f64.mul (local.get $e) (f64.const 0.999999999))))))

    ;; Measures a whole frame of $w × $h pixels ($w a multiple of 4) into $out; returns how many pixels it
  ;; could not finish (tail draws of the ziggurat), whose indices and depths (before the error) it lists at
  ;; $slowIdx and $slowZ.
  ;;
  ;; Two passes. The vector pass measures four pixels at a time as if no pixel were mixed, grazing or a
  ;; ziggurat rejection, and lists (at $list) the pixels that may be any of those; the scalar pass then
  ;; measures each listed pixel from scratch, as the reference does. The vector pass calls nothing and
  ;; branches only around the edge draws (about one group in ten), so V8 keeps its vectors in registers.
  (func (export "measure")
      (param $w i32) (param $h i32) (param $depth i32) (param $inc i32) (param $out i32) (param $slowIdx i32) (param $slowZ i32)
      (param $em i32) (param $eo i32) (param $mm i32) (param $mo i32) (param $gm i32) (param $go i32)
      (param $minRange f64) (param $maxRange f64) (param $bias1 f64) (param $s0 f64) (param $s1 f64) (param $s2 f64)
      (param $edgesOn i32) (param $edgeLo f32) (param $edgeStep f64) (param $mixedT i32) (param $mixedPixel f64)
      (param $grazeUp f32) (param $gFull f64) (param $gStart f64) (param $gSpan f64)
      (param $minUp f32) (param $maxDown f32) (param $plain i32) (param $list i32) (param $rejected i32) (param $rowFlags i32)
      (result i32)
    (local $row i32) (local $col i32) (local $i i32) (local $pd i32) (local $up i32) (local $down i32)
    (local $slow i32) (local $bits i32) (local $a i32) (local $count i32) (local $k i32) (local $hs i32) (local $t i32) (local $ms i32) (local $rejectedCount i32)
    (local $weyl v128) (local $z4 v128) (local $zlo v128) (local $zhi v128) (local $inf v128) (local $bad v128) (local $special v128) (local $rej v128) (local $below v128) (local $right v128) (local $rightBefore v128)
    (local $maybe v128) (local $hm v128) (local $hv v128) (local $m v128) (local $kv v128) (local $wlo v128) (local $whi v128) (local $x v128)
    (local $z f64) (local $n f64) (local $cos f64)
    ;; The error stream's Weyl sequence i·em + eo for pixels i … i + 3, stepped by 4·em.
    (local.set $weyl (i32x4.add (i32x4.mul (v128.const i32x4 0 1 2 3) (i32x4.splat (local.get $em))) (i32x4.splat (local.get $eo))))
    ;; The first group's error draws (the loop draws each next group's ahead).
    (local.set $hv (v128.xor (local.get $weyl) (i32x4.shr_u (local.get $weyl) (i32.const 16))))
    (local.set $hv (i32x4.mul (local.get $hv) (v128.const i32x4 0x85ebca6b 0x85ebca6b 0x85ebca6b 0x85ebca6b)))
    (local.set $hv (v128.xor (local.get $hv) (i32x4.shr_u (local.get $hv) (i32.const 13))))
    (local.set $hv (i32x4.mul (local.get $hv) (v128.const i32x4 0xc2b2ae35 0xc2b2ae35 0xc2b2ae35 0xc2b2ae35)))
    (local.set $hv (v128.xor (local.get $hv) (i32x4.shr_u (local.get $hv) (i32.const 16))))
    (local.set $weyl (i32x4.add (local.get $weyl) (i32x4.splat (i32.shl (local.get $em) (i32.const 2)))))
    (local.set $x (i32x4.shl (v128.and (local.get $hv) (v128.const i32x4 127 127 127 127)) (i32.const 4)))
    (local.set $a (i32x4.extract_lane 0 (local.get $x)))
    (local.set $wlo (v128.load64_lane 0 (local.get $a) (local.get $wlo)))
    (local.set $kv (v128.load32_lane offset=8 0 (local.get $a) (local.get $kv)))
    (local.set $a (i32x4.extract_lane 1 (local.get $x)))
    (local.set $wlo (v128.load64_lane 1 (local.get $a) (local.get $wlo)))
    (local.set $kv (v128.load32_lane offset=8 1 (local.get $a) (local.get $kv)))
    (local.set $a (i32x4.extract_lane 2 (local.get $x)))
    (local.set $whi (v128.load64_lane 0 (local.get $a) (local.get $whi)))
    (local.set $kv (v128.load32_lane offset=8 2 (local.get $a) (local.get $kv)))
    (local.set $a (i32x4.extract_lane 3 (local.get $x)))
    (local.set $whi (v128.load64_lane 1 (local.get $a) (local.get $whi)))
    (local.set $kv (v128.load32_lane offset=8 3 (local.get $a) (local.get $kv)))
    (local.set $m (i32x4.shr_s (local.get $hv) (i32.const 7)))
    (memory.fill (local.get $rowFlags) (i32.const 0) (i32.shl (local.get $w) (i32.const 2)))
    (local.set $row (i32.const 0))
    (loop $rows
      (local.set $up (select (i32.sub (i32.const 0) (i32.shl (local.get $w) (i32.const 2))) (i32.const 0) (i32.gt_s (local.get $row) (i32.const 0))))
      (local.set $down (select (i32.shl (local.get $w) (i32.const 2)) (i32.const 0) (i32.lt_s (local.get $row) (i32.sub (local.get $h) (i32.const 1)))))
      (local.set $col (i32.const 0))
      (loop $groups
        (local.set $i (i32.add (i32.mul (local.get $row) (local.get $w)) (local.get $col)))
        (local.set $pd (i32.add (local.get $depth) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $z4 (v128.load (local.get $pd)))
        (local.set $inf (f32x4.eq (local.get $z4) (v128.const f32x4 inf inf inf inf)))
        ;; No reading: no surface, NaN, or out of range (exact in f32 with the range rounded inwards to f32).
        (local.set $bad (v128.or (v128.or (local.get $inf) (f32x4.ne (local.get $z4) (local.get $z4)))
          (v128.or (f32x4.lt (local.get $z4) (f32x4.splat (local.get $minUp))) (f32x4.gt (local.get $z4) (f32x4.splat (local.get $maxDown))))))
        ;; Grazing: exact in f32 (grazeUp is the least f32 at least grazingCosStart).
        (local.set $special (v128.andnot (f32x4.lt (v128.load (i32.add (local.get $inc) (i32.shl (local.get $i) (i32.const 2)))) (f32x4.splat (local.get $grazeUp))) (local.get $inf)))
        ;; Mixed: lanes that may be edges (the f32 prefilter) whose mixed draw is below mixedPixel. Each step
        ;; between two neighbours is tested once: a pixel's left step is its left neighbour's right step
        ;; ($right keeps the last group's), its upper step the one above's lower step ($rowFlags keeps the last
        ;; row's). The image's rows are contiguous, so at the ends of a row the prefilter also sees the step to
        ;; the next or last row's end pixel: that can only add candidates, which the scalar pass tests exactly.
        (if (local.get $edgesOn) (then
          (local.set $maybe (f32x4.gt (f32x4.abs (f32x4.sub (v128.load (i32.add (local.get $pd) (i32.const 4))) (local.get $z4))) (f32x4.splat (local.get $edgeLo))))
          (local.set $below (f32x4.gt (f32x4.abs (f32x4.sub (v128.load (i32.add (local.get $pd) (local.get $down))) (local.get $z4))) (f32x4.splat (local.get $edgeLo))))
          (local.set $a (i32.add (local.get $rowFlags) (i32.shl (local.get $col) (i32.const 2))))
          (local.set $x (v128.load (local.get $a)))
          (v128.store (local.get $a) (local.get $below))
          (local.set $right (local.get $maybe))
          (local.set $maybe (v128.andnot
            (v128.or (v128.or (local.get $maybe) (i8x16.shuffle 28 29 30 31 0 1 2 3 4 5 6 7 8 9 10 11 (local.get $maybe) (local.get $rightBefore)))
              (v128.or (local.get $x) (local.get $below)))
            (local.get $inf)))
          (local.set $rightBefore (local.get $right))
          (if (v128.any_true (local.get $maybe)) (then
            (local.set $hm (i32x4.add (i32x4.mul (i32x4.add (i32x4.splat (local.get $i)) (v128.const i32x4 0 1 2 3)) (i32x4.splat (local.get $mm))) (i32x4.splat (local.get $mo))))
            (local.set $hm (v128.xor (local.get $hm) (i32x4.shr_u (local.get $hm) (i32.const 16))))
            (local.set $hm (i32x4.mul (local.get $hm) (v128.const i32x4 0x85ebca6b 0x85ebca6b 0x85ebca6b 0x85ebca6b)))
            (local.set $hm (v128.xor (local.get $hm) (i32x4.shr_u (local.get $hm) (i32.const 13))))
            (local.set $hm (i32x4.mul (local.get $hm) (v128.const i32x4 0xc2b2ae35 0xc2b2ae35 0xc2b2ae35 0xc2b2ae35)))
            (local.set $hm (v128.xor (local.get $hm) (i32x4.shr_u (local.get $hm) (i32.const 16))))
            (local.set $special (v128.or (local.get $special) (v128.and (local.get $maybe) (i32x4.lt_u (local.get $hm) (i32x4.splat (local.get $mixedT))))))))))
        ;; Rejections (|m| >= K) of pixels with a reading.
        (local.set $rej (v128.andnot (v128.andnot (i32x4.ge_s (i32x4.abs (local.get $m)) (local.get $kv)) (local.get $bad)) (local.get $special)))
        ;; z += bias1·z + (sigma0 + sigma1·z + sigma2·z·z)·(m·W), in the reference's order; with bias1 = sigma0 =
        ;; sigma1 = 0 ($plain) the zero terms change only the sign of a zero, which z + (±0) does not see.
        (local.set $zlo (f64x2.promote_low_f32x4 (local.get $z4)))
        (local.set $zhi (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $z4) (local.get $z4))))
        (local.set $wlo (f64x2.mul (f64x2.convert_low_i32x4_s (local.get $m)) (local.get $wlo)))
        (local.set $whi (f64x2.mul (f64x2.convert_low_i32x4_s (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $m) (local.get $m))) (local.get $whi)))
        (if (local.get $plain)
          (then
            (local.set $zlo (f64x2.add (local.get $zlo) (f64x2.mul (f64x2.mul (f64x2.mul (f64x2.splat (local.get $s2)) (local.get $zlo)) (local.get $zlo)) (local.get $wlo))))
            (local.set $zhi (f64x2.add (local.get $zhi) (f64x2.mul (f64x2.mul (f64x2.mul (f64x2.splat (local.get $s2)) (local.get $zhi)) (local.get $zhi)) (local.get $whi)))))
          (else
            (local.set $zlo (f64x2.add (local.get $zlo) (f64x2.add (f64x2.mul (f64x2.splat (local.get $bias1)) (local.get $zlo))
              (f64x2.mul
                (f64x2.add (f64x2.add (f64x2.splat (local.get $s0)) (f64x2.mul (f64x2.splat (local.get $s1)) (local.get $zlo))) (f64x2.mul (f64x2.mul (f64x2.splat (local.get $s2)) (local.get $zlo)) (local.get $zlo)))
                (local.get $wlo)))))
            (local.set $zhi (f64x2.add (local.get $zhi) (f64x2.add (f64x2.mul (f64x2.splat (local.get $bias1)) (local.get $zhi))
              (f64x2.mul
                (f64x2.add (f64x2.add (f64x2.splat (local.get $s0)) (f64x2.mul (f64x2.splat (local.get $s1)) (local.get $zhi))) (f64x2.mul (f64x2.mul (f64x2.splat (local.get $s2)) (local.get $zhi)) (local.get $zhi)))
                (local.get $whi)))))))
        ;; Whole millimetres: ⌊z·1000 + 0.5⌋, at least 1 (max), at most 65535 (the saturating narrow), 0 where
        ;; there is no reading. (No valid lane is NaN: NaN depths are bad and the error terms are bounded.)
        (v128.store64_lane 0 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1)))
          (i16x8.narrow_i32x4_u
            (v128.andnot
              (i32x4.max_s (v128.const i32x4 1 1 1 1) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                (i32x4.trunc_sat_f64x2_s_zero (f64x2.add (f64x2.mul (local.get $zlo) (v128.const f64x2 1000 1000)) (v128.const f64x2 0.5 0.5)))
                (i32x4.trunc_sat_f64x2_s_zero (f64x2.add (f64x2.mul (local.get $zhi) (v128.const f64x2 1000 1000)) (v128.const f64x2 0.5 0.5)))))
              (local.get $bad))
            (v128.const i32x4 0 0 0 0)))
        ;; List the special lanes without a branch (the table at 3200 holds, for each 4-bit mask, its lanes'
        ;; numbers packed to the front): mixed and grazing candidates at $list, other rejections at $rejected.
        (local.set $bits (i32x4.bitmask (local.get $special)))
        (v128.store (i32.add (local.get $list) (i32.shl (local.get $count) (i32.const 2)))
          (i32x4.add (i32x4.splat (local.get $i)) (v128.load offset=3200 (i32.shl (local.get $bits) (i32.const 4)))))
        (local.set $count (i32.add (local.get $count) (i32.popcnt (local.get $bits))))
        (local.set $bits (i32x4.bitmask (local.get $rej)))
        (v128.store (i32.add (local.get $rejected) (i32.shl (local.get $rejectedCount) (i32.const 2)))
          (i32x4.add (i32x4.splat (local.get $i)) (v128.load offset=3200 (i32.shl (local.get $bits) (i32.const 4)))))
        (local.set $rejectedCount (i32.add (local.get $rejectedCount) (i32.popcnt (local.get $bits))))
        ;; The next group's error draws (mix32 written out) and the ziggurat's tables for them (layer h & 127,
        ;; position m = h >> 7), a group ahead: they depend on the pixel index only, and their latency (two
        ;; multiplies, then the table loads) then overlaps this group's work.
        (local.set $hv (v128.xor (local.get $weyl) (i32x4.shr_u (local.get $weyl) (i32.const 16))))
        (local.set $hv (i32x4.mul (local.get $hv) (v128.const i32x4 0x85ebca6b 0x85ebca6b 0x85ebca6b 0x85ebca6b)))
        (local.set $hv (v128.xor (local.get $hv) (i32x4.shr_u (local.get $hv) (i32.const 13))))
        (local.set $hv (i32x4.mul (local.get $hv) (v128.const i32x4 0xc2b2ae35 0xc2b2ae35 0xc2b2ae35 0xc2b2ae35)))
        (local.set $hv (v128.xor (local.get $hv) (i32x4.shr_u (local.get $hv) (i32.const 16))))
        (local.set $weyl (i32x4.add (local.get $weyl) (i32x4.splat (i32.shl (local.get $em) (i32.const 2)))))
        (local.set $x (i32x4.shl (v128.and (local.get $hv) (v128.const i32x4 127 127 127 127)) (i32.const 4)))
        (local.set $a (i32x4.extract_lane 0 (local.get $x)))
        (local.set $wlo (v128.load64_lane 0 (local.get $a) (local.get $wlo)))
        (local.set $kv (v128.load32_lane offset=8 0 (local.get $a) (local.get $kv)))
        (local.set $a (i32x4.extract_lane 1 (local.get $x)))
        (local.set $wlo (v128.load64_lane 1 (local.get $a) (local.get $wlo)))
        (local.set $kv (v128.load32_lane offset=8 1 (local.get $a) (local.get $kv)))
        (local.set $a (i32x4.extract_lane 2 (local.get $x)))
        (local.set $whi (v128.load64_lane 0 (local.get $a) (local.get $whi)))
        (local.set $kv (v128.load32_lane offset=8 2 (local.get $a) (local.get $kv)))
        (local.set $a (i32x4.extract_lane 3 (local.get $x)))
        (local.set $whi (v128.load64_lane 1 (local.get $a) (local.get $whi)))
        (local.set $kv (v128.load32_lane offset=8 3 (local.get $a) (local.get $kv)))
        (local.set $m (i32x4.shr_s (local.get $hv) (i32.const 7)))
        (br_if $groups (i32.lt_u (local.tee $col (i32.add (local.get $col) (i32.const 4))) (local.get $w))))
      (br_if $rows (i32.lt_u (local.tee $row (i32.add (local.get $row) (i32.const 1))) (local.get $h))))
    ;; The rejections of pixels that are neither mixed nor grazing candidates: their depth is the image's
    ;; and has a reading; only the error is drawn again.
    (local.set $k (i32.const 0))
    (block $done
      (loop $listed
        (br_if $done (i32.ge_u (local.get $k) (local.get $rejectedCount)))
        (local.set $i (i32.load (i32.add (local.get $rejected) (i32.shl (local.get $k) (i32.const 2)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (local.set $z (f64.promote_f32 (f32.load (i32.add (local.get $depth) (i32.shl (local.get $i) (i32.const 2))))))
        (local.set $hs (i32.add (i32.mul (local.get $i) (local.get $em)) (local.get $eo)))
        (local.set $hs (i32.xor (local.get $hs) (i32.shr_u (local.get $hs) (i32.const 16))))
        (local.set $hs (i32.mul (local.get $hs) (i32.const 0x85ebca6b)))
        (local.set $hs (i32.xor (local.get $hs) (i32.shr_u (local.get $hs) (i32.const 13))))
        (local.set $hs (i32.mul (local.get $hs) (i32.const 0xc2b2ae35)))
        (local.set $hs (i32.xor (local.get $hs) (i32.shr_u (local.get $hs) (i32.const 16))))
        (local.set $n (call $wedgeOnce (local.get $hs)))
        (if (f64.ne (local.get $n) (local.get $n)) (then (local.set $n (call $normalSlow (local.get $hs)))))
        (if (f64.ne (local.get $n) (local.get $n))
          (then
            ;; A tail draw: finished in JS.
            (i32.store (i32.add (local.get $slowIdx) (i32.shl (local.get $slow) (i32.const 2))) (local.get $i))
            (f64.store (i32.add (local.get $slowZ) (i32.shl (local.get $slow) (i32.const 3))) (local.get $z))
            (local.set $slow (i32.add (local.get $slow) (i32.const 1))))
          (else
            (local.set $z (f64.add (local.get $z) (f64.add (f64.mul (local.get $bias1) (local.get $z))
              (f64.mul (f64.add (f64.add (local.get $s0) (f64.mul (local.get $s1) (local.get $z))) (f64.mul (f64.mul (local.get $s2) (local.get $z)) (local.get $z))) (local.get $n)))))
            (i32.store16 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1)))
              (i32.trunc_sat_f64_s (f64.min (f64.max (f64.add (f64.mul (local.get $z) (f64.const 1000)) (f64.const 0.5)) (f64.const 1)) (f64.const 65535))))))
        (br $listed)))
    ;; The mixed and grazing candidates, one at a time, as the reference measures them.
    (local.set $k (i32.const 0))
    (block $candidatesDone
      (loop $candidates
        (br_if $candidatesDone (i32.ge_u (local.get $k) (local.get $count)))
        (local.set $i (i32.load (i32.add (local.get $list) (i32.shl (local.get $k) (i32.const 2)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (local.set $pd (i32.add (local.get $depth) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $z (f64.promote_f32 (f32.load (local.get $pd))))
        (if (local.get $edgesOn) (then
          (local.set $hs (call $mix32 (i32.add (i32.mul (local.get $i) (local.get $mm)) (local.get $mo))))
          (if (i32.lt_u (local.get $hs) (local.get $mixedT)) (then
            (local.set $row (i32.div_u (local.get $i) (local.get $w)))
            (local.set $col (i32.sub (local.get $i) (i32.mul (local.get $row) (local.get $w))))
            (local.set $z (call $blend (local.get $pd)
              (i32.gt_s (local.get $col) (i32.const 0)) (i32.lt_s (local.get $col) (i32.sub (local.get $w) (i32.const 1)))
              (select (i32.sub (i32.const 0) (i32.shl (local.get $w) (i32.const 2))) (i32.const 0) (i32.gt_s (local.get $row) (i32.const 0)))
              (select (i32.shl (local.get $w) (i32.const 2)) (i32.const 0) (i32.lt_s (local.get $row) (i32.sub (local.get $h) (i32.const 1))))
              (local.get $z) (f64.mul (f64.convert_i32_u (local.get $hs)) (f64.const 0x1p-32)) (local.get $edgeStep) (local.get $mixedPixel)))))))
        (local.set $a (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1))))
        (local.set $cos (f64.promote_f32 (f32.load (i32.add (local.get $inc) (i32.shl (local.get $i) (i32.const 2))))))
        (block $measured
          (if (f64.lt (local.get $cos) (local.get $gStart)) (then
            (if (call $graze (local.get $i) (local.get $cos) (local.get $gm) (local.get $go) (local.get $gFull) (local.get $gStart) (local.get $gSpan)) (then
              (i32.store16 (local.get $a) (i32.const 0))
              (br $measured)))))
          (if (i32.or (f64.lt (local.get $z) (local.get $minRange)) (f64.gt (local.get $z) (local.get $maxRange))) (then
            (i32.store16 (local.get $a) (i32.const 0))
            (br $measured)))
          (local.set $hs (call $mix32 (i32.add (i32.mul (local.get $i) (local.get $em)) (local.get $eo))))
          ;; The ziggurat's fast path, else counter-rng.ts's normalSlow.
          (local.set $t (i32.shl (i32.and (local.get $hs) (i32.const 127)) (i32.const 4)))
          (local.set $ms (i32.shr_s (local.get $hs) (i32.const 7)))
          (local.set $n (if (result f64) (i32.lt_s (select (local.get $ms) (i32.sub (i32.const 0) (local.get $ms)) (i32.ge_s (local.get $ms) (i32.const 0)))
                                                   (i32.load offset=8 (local.get $t)))
            (then (f64.mul (f64.convert_i32_s (local.get $ms)) (f64.load (local.get $t))))
            (else (call $normalSlow (local.get $hs)))))
          (if (f64.ne (local.get $n) (local.get $n)) (then
            ;; A tail draw: finished in JS.
            (i32.store (i32.add (local.get $slowIdx) (i32.shl (local.get $slow) (i32.const 2))) (local.get $i))
            (f64.store (i32.add (local.get $slowZ) (i32.shl (local.get $slow) (i32.const 3))) (local.get $z))
            (local.set $slow (i32.add (local.get $slow) (i32.const 1)))
            (br $measured)))
          (local.set $z (f64.add (local.get $z) (f64.add (f64.mul (local.get $bias1) (local.get $z))
            (f64.mul (f64.add (f64.add (local.get $s0) (f64.mul (local.get $s1) (local.get $z))) (f64.mul (f64.mul (local.get $s2) (local.get $z)) (local.get $z))) (local.get $n)))))
          (i32.store16 (local.get $a)
            (i32.trunc_sat_f64_s (f64.min (f64.max (f64.add (f64.mul (local.get $z) (f64.const 1000)) (f64.const 0.5)) (f64.const 1)) (f64.const 65535)))))
        (br $candidates)))
    (local.get $slow)))
