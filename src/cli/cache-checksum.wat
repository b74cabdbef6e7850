;; The checksum of a code cache (src/cli/cache-checksum.ts): sixteen 32-bit lanes, each an FNV-style
;; state (xor a word in, multiply by the FNV prime: a bijection, so a changed word always changes
;; its lane), over the bytes at $p, whose length is a multiple of 64 (zero-padded by the caller);
;; the true length is mixed into the first lane. The lanes fold into 64 bits at the end.
(module
  (memory (export "memory") 1)
  (func (export "checksum") (param $p i32) (param $padded i32) (param $length i32) (result i64)
    (local $end i32) (local $a v128) (local $b v128) (local $c v128) (local $d v128) (local $k v128)
    (local.set $k (i32x4.splat (i32.const 0x01000193)))
    (local.set $a (i32x4.replace_lane 0 (i32x4.splat (i32.const 0x811c9dc5)) (local.get $length)))
    (local.set $b (i32x4.splat (i32.const 0x9e3779b9)))
    (local.set $c (i32x4.splat (i32.const 0x85ebca6b)))
    (local.set $d (i32x4.splat (i32.const 0xc2b2ae35)))
    (local.set $end (i32.add (local.get $p) (local.get $padded)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $a (i32x4.mul (v128.xor (local.get $a) (v128.load offset=0 (local.get $p))) (local.get $k)))
        (local.set $b (i32x4.mul (v128.xor (local.get $b) (v128.load offset=16 (local.get $p))) (local.get $k)))
        (local.set $c (i32x4.mul (v128.xor (local.get $c) (v128.load offset=32 (local.get $p))) (local.get $k)))
        (local.set $d (i32x4.mul (v128.xor (local.get $d) (v128.load offset=48 (local.get $p))) (local.get $k)))
        (local.set $p (i32.add (local.get $p) (i32.const 64)))
        (br $next)))
    (local.set $a (i32x4.mul (v128.xor (local.get $a) (local.get $b)) (local.get $k)))
    (local.set $a (i32x4.mul (v128.xor (local.get $a) (local.get $c)) (local.get $k)))
    (local.set $a (i32x4.mul (v128.xor (local.get $a) (local.get $d)) (local.get $k)))
    (i64.xor (i64x2.extract_lane 0 (local.get $a)) (i64.rotl (i64x2.extract_lane 1 (local.get $a)) (i64.const 29)))))
