;; The exact vector scan behind the warm vector cache (vector-cache.ts). Compiled by
;; `node dist/scripts/build-wasm.js` into vector-scan-wasm.ts; a test checks the two agree.
;;
;; scores(q, base, n, stride, out): for each of the n rows of `stride` f32 stored back to back from
;; byte `base`, out[i] = the dot product of the row with the query at byte `q`. `stride` is a
;; multiple of 8 (rows are zero-padded), so each step reads two 128-bit lanes of four floats.
(module
  (memory (export "memory") 1 65536)
  (func (export "scores") (param $q i32) (param $base i32) (param $n i32) (param $stride i32) (param $out i32)
    (local $row i32) (local $end i32) (local $d i32) (local $bytes i32) (local $a v128) (local $b v128)
    (local.set $bytes (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $row (local.get $base))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $a (v128.const f32x4 0 0 0 0))
        (local.set $b (v128.const f32x4 0 0 0 0))
        (local.set $d (i32.const 0))
        (loop $columns
          (local.set $a (f32x4.add (local.get $a) (f32x4.mul
            (v128.load (i32.add (local.get $row) (local.get $d)))
            (v128.load (i32.add (local.get $q) (local.get $d))))))
          (local.set $b (f32x4.add (local.get $b) (f32x4.mul
            (v128.load offset=16 (i32.add (local.get $row) (local.get $d)))
            (v128.load offset=16 (i32.add (local.get $q) (local.get $d))))))
          (local.set $d (i32.add (local.get $d) (i32.const 32)))
          (br_if $columns (i32.lt_u (local.get $d) (local.get $bytes))))
        (local.set $a (f32x4.add (local.get $a) (local.get $b)))
        (f32.store (local.get $out) (f32.add
          (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
          (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        (local.set $row (i32.add (local.get $row) (local.get $bytes)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $rows)))))
