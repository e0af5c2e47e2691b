;; The scoring kernel (scoring.ts explains the formula and why it is WebAssembly). Compiled into
;; scoring-kernel.ts by `npm run build:kernel`; a test checks that the two agree.
;;
;; Memory, for N documents (set by `init`), all offsets in bytes:
;;   wordScore f64[N] | sub0 f64[N] | sub1 f64[N] | keys f64[N] | wordStamp u32[N] | queryStamp u32[N]
;;   | wordDocs i32[N] | docs i32[N] | mask u8[N] | heap f64[HEAP] | input bytes (grown by the caller)
(module
  (memory (export "memory") 1)
  (global $n (mut i32) (i32.const 0))
  (global $wordScore (mut i32) (i32.const 0))
  (global $sub0 (mut i32) (i32.const 0))
  (global $sub1 (mut i32) (i32.const 0))
  (global $keys (mut i32) (i32.const 0))
  (global $wordStamp (mut i32) (i32.const 0))
  (global $queryStamp (mut i32) (i32.const 0))
  (global $wordDocs (mut i32) (i32.const 0))
  (global $docs (mut i32) (i32.const 0))
  (global $mask (mut i32) (i32.const 0))
  (global $heap (mut i32) (i32.const 0))
  (global $input (mut i32) (i32.const 0))
  (global $queryEpoch (mut i32) (i32.const 0))
  (global $wordEpoch (mut i32) (i32.const 0))
  (global $wordCount (mut i32) (i32.const 0))
  (global $count (mut i32) (i32.const 0))

  ;; Lays out memory for $docCount documents and a heap of $heapSize keys; returns where input starts.
  (func (export "init") (param $docCount i32) (param $heapSize i32) (result i32)
    (local $at i32)
    (global.set $n (local.get $docCount))
    (global.set $wordScore (i32.const 0))
    (global.set $sub0 (i32.mul (local.get $docCount) (i32.const 8)))
    (global.set $sub1 (i32.mul (local.get $docCount) (i32.const 16)))
    (global.set $keys (i32.mul (local.get $docCount) (i32.const 24)))
    (global.set $wordStamp (i32.mul (local.get $docCount) (i32.const 32)))
    (global.set $queryStamp (i32.mul (local.get $docCount) (i32.const 36)))
    (global.set $wordDocs (i32.mul (local.get $docCount) (i32.const 40)))
    (global.set $docs (i32.mul (local.get $docCount) (i32.const 44)))
    (global.set $mask (i32.mul (local.get $docCount) (i32.const 48)))
    ;; The heap after the masks, 8-aligned.
    (local.set $at (i32.and (i32.add (i32.mul (local.get $docCount) (i32.const 49)) (i32.const 7)) (i32.const -8)))
    (global.set $heap (local.get $at))
    (global.set $input (i32.add (local.get $at) (i32.mul (local.get $heapSize) (i32.const 8))))
    (global.get $input))

  (func (export "keysAt") (result i32) (global.get $keys))
  (func (export "heapAt") (result i32) (global.get $heap))
  (func (export "docsAt") (result i32) (global.get $docs))
  (func (export "count") (result i32) (global.get $count))

  (func (export "startQuery")
    (global.set $queryEpoch (i32.add (global.get $queryEpoch) (i32.const 1)))
    (global.set $count (i32.const 0)))

  (func (export "startWord")
    (global.set $wordEpoch (i32.add (global.get $wordEpoch) (i32.const 1)))
    (global.set $wordCount (i32.const 0)))

  ;; Scores one segment of postings, input bytes [$start, $end), into the current word.
  ;; Returns 0, or 1 when the bytes are not a well-formed segment (the caller names the part).
  (func (export "addSegment")
    (param $start i32) (param $end i32) (param $document i32)
    (param $idf f64) (param $weight f64) (param $averageLength f64)
    (param $d f64) (param $kPlus1 f64) (param $k f64) (param $oneMinusB f64) (param $b f64)
    (result i32)
    (local $at i32) (local $byte i32) (local $shift i32) (local $value i32) (local $field i32)
    (local $gap i32) (local $tf f64) (local $length f64) (local $bm25 f64) (local $slot i32)
    (local.set $at (local.get $start))
    (block $done
      (loop $posting
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        ;; Three varints: gap, tf, length.
        (local.set $field (i32.const 0))
        (loop $varints
          (local.set $value (i32.const 0))
          (local.set $shift (i32.const 0))
          (loop $bytes
            (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const 1))))
            (if (i32.gt_u (local.get $shift) (i32.const 28)) (then (return (i32.const 1))))
            (local.set $byte (i32.load8_u (local.get $at)))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))
            (local.set $value (i32.or (local.get $value)
              (i32.shl (i32.and (local.get $byte) (i32.const 127)) (local.get $shift))))
            (local.set $shift (i32.add (local.get $shift) (i32.const 7)))
            (br_if $bytes (i32.ge_u (local.get $byte) (i32.const 128))))
          (if (i32.eq (local.get $field) (i32.const 0)) (then (local.set $gap (local.get $value))))
          (if (i32.eq (local.get $field) (i32.const 1)) (then (local.set $tf (f64.convert_i32_u (local.get $value)))))
          (if (i32.eq (local.get $field) (i32.const 2)) (then (local.set $length (f64.convert_i32_u (local.get $value)))))
          (local.set $field (i32.add (local.get $field) (i32.const 1)))
          (br_if $varints (i32.lt_u (local.get $field) (i32.const 3))))
        (local.set $document (i32.add (local.get $document) (local.get $gap)))
        (if (i32.ge_u (local.get $document) (global.get $n)) (then (return (i32.const 1))))
        ;; MiniSearch's calcBM25Score, operation for operation:
        ;; idf * (d + tf * (k + 1) / (tf + k * (1 - b + b * length / averageLength)))
        (local.set $bm25
          (f64.mul (local.get $idf)
            (f64.add (local.get $d)
              (f64.div
                (f64.mul (local.get $tf) (local.get $kPlus1))
                (f64.add (local.get $tf)
                  (f64.mul (local.get $k)
                    (f64.add (local.get $oneMinusB)
                      (f64.div (f64.mul (local.get $b) (local.get $length)) (local.get $averageLength)))))))))
        (local.set $slot (i32.add (global.get $wordScore) (i32.shl (local.get $document) (i32.const 3))))
        (if (i32.ne (i32.load (i32.add (global.get $wordStamp) (i32.shl (local.get $document) (i32.const 2)))) (global.get $wordEpoch))
          (then
            (i32.store (i32.add (global.get $wordStamp) (i32.shl (local.get $document) (i32.const 2))) (global.get $wordEpoch))
            (f64.store (local.get $slot) (f64.mul (local.get $weight) (local.get $bm25)))
            (i32.store (i32.add (global.get $wordDocs) (i32.shl (global.get $wordCount) (i32.const 2))) (local.get $document))
            (global.set $wordCount (i32.add (global.get $wordCount) (i32.const 1))))
          (else
            (f64.store (local.get $slot)
              (f64.add (f64.load (local.get $slot)) (f64.mul (local.get $weight) (local.get $bm25))))))
        (br $posting)))
    (i32.const 0))

  ;; Adds the current word's sums into subquery $subquery's (0 or 1) and marks query word $word.
  (func (export "endWord") (param $subquery i32) (param $word i32)
    (local $i i32) (local $document i32) (local $own i32) (local $slot i32)
    (local.set $own (select (global.get $sub1) (global.get $sub0) (local.get $subquery)))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (global.get $wordCount)))
        (local.set $document (i32.load (i32.add (global.get $wordDocs) (i32.shl (local.get $i) (i32.const 2)))))
        (if (i32.ne (i32.load (i32.add (global.get $queryStamp) (i32.shl (local.get $document) (i32.const 2)))) (global.get $queryEpoch))
          (then
            (i32.store (i32.add (global.get $queryStamp) (i32.shl (local.get $document) (i32.const 2))) (global.get $queryEpoch))
            (f64.store (i32.add (global.get $sub0) (i32.shl (local.get $document) (i32.const 3))) (f64.const 0))
            (f64.store (i32.add (global.get $sub1) (i32.shl (local.get $document) (i32.const 3))) (f64.const 0))
            (i32.store8 (i32.add (global.get $mask) (local.get $document)) (i32.const 0))
            (i32.store (i32.add (global.get $docs) (i32.shl (global.get $count) (i32.const 2))) (local.get $document))
            (global.set $count (i32.add (global.get $count) (i32.const 1)))))
        (local.set $slot (i32.add (local.get $own) (i32.shl (local.get $document) (i32.const 3))))
        (f64.store (local.get $slot)
          (f64.add (f64.load (local.get $slot))
            (f64.load (i32.add (global.get $wordScore) (i32.shl (local.get $document) (i32.const 3))))))
        (i32.store8 (i32.add (global.get $mask) (local.get $document))
          (i32.or (i32.load8_u (i32.add (global.get $mask) (local.get $document))) (i32.shl (i32.const 1) (local.get $word))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each))))

  ;; A matched document's score before rounding: both subqueries' sums times the words it matched
  ;; (MiniSearch's OR), times the words it matched again, over the words searched (this API's rule).
  (func $raw (export "raw") (param $document i32) (param $words f64) (result f64)
    (local $matched f64)
    (local.set $matched (f64.convert_i32_u (i32.popcnt (i32.load8_u (i32.add (global.get $mask) (local.get $document))))))
    (f64.div
      (f64.mul
        (f64.mul
          (f64.add
            (f64.load (i32.add (global.get $sub0) (i32.shl (local.get $document) (i32.const 3))))
            (f64.load (i32.add (global.get $sub1) (i32.shl (local.get $document) (i32.const 3)))))
          (local.get $matched))
        (local.get $matched))
      (local.get $words)))

  ;; Fills keys[i] = units * span + (span - 1 - document) for every matched document, units being the score
  ;; in ten-thousandths as Math.round rounds it (half up), at least 1. Returns the largest units.
  (func (export "fillKeys") (param $words f64) (param $span f64) (result f64)
    (local $i i32) (local $document i32) (local $scaled f64) (local $units f64) (local $max f64)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (global.get $count)))
        (local.set $document (i32.load (i32.add (global.get $docs) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $scaled (f64.mul (call $raw (local.get $document) (local.get $words)) (f64.const 10000)))
        (local.set $units (f64.floor (local.get $scaled)))
        (if (f64.ge (f64.sub (local.get $scaled) (local.get $units)) (f64.const 0.5))
          (then (local.set $units (f64.add (local.get $units) (f64.const 1)))))
        (local.set $units (f64.max (local.get $units) (f64.const 1)))
        (local.set $max (f64.max (local.get $max) (local.get $units)))
        (f64.store (i32.add (global.get $keys) (i32.shl (local.get $i) (i32.const 3)))
          (f64.add (f64.mul (local.get $units) (local.get $span))
            (f64.sub (f64.sub (local.get $span) (f64.const 1)) (f64.convert_i32_u (local.get $document)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    (local.get $max))

  ;; The $k largest keys into the heap (a min-heap, unordered); returns how many.
  (func (export "largest") (param $k i32) (result i32)
    (local $i i32) (local $size i32) (local $key f64) (local $at i32) (local $parent i32)
    (local $left i32) (local $child i32) (local $swap f64)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (global.get $count)))
        (local.set $key (f64.load (i32.add (global.get $keys) (i32.shl (local.get $i) (i32.const 3)))))
        (if (i32.lt_u (local.get $size) (local.get $k))
          (then
            ;; Append and sift up.
            (local.set $at (local.get $size))
            (local.set $size (i32.add (local.get $size) (i32.const 1)))
            (block $placed
              (loop $up
                (br_if $placed (i32.eqz (local.get $at)))
                (local.set $parent (i32.shr_u (i32.sub (local.get $at) (i32.const 1)) (i32.const 1)))
                (br_if $placed (f64.le (f64.load (i32.add (global.get $heap) (i32.shl (local.get $parent) (i32.const 3)))) (local.get $key)))
                (f64.store (i32.add (global.get $heap) (i32.shl (local.get $at) (i32.const 3)))
                  (f64.load (i32.add (global.get $heap) (i32.shl (local.get $parent) (i32.const 3)))))
                (local.set $at (local.get $parent))
                (br $up)))
            (f64.store (i32.add (global.get $heap) (i32.shl (local.get $at) (i32.const 3))) (local.get $key)))
          (else
            (if (f64.gt (local.get $key) (f64.load (global.get $heap)))
              (then
                ;; Replace the smallest and sift down.
                (local.set $at (i32.const 0))
                (block $placed
                  (loop $down
                    (local.set $left (i32.add (i32.shl (local.get $at) (i32.const 1)) (i32.const 1)))
                    (br_if $placed (i32.ge_u (local.get $left) (local.get $size)))
                    (local.set $child (local.get $left))
                    (if (i32.lt_u (i32.add (local.get $left) (i32.const 1)) (local.get $size))
                      (then
                        (if (f64.lt
                              (f64.load (i32.add (global.get $heap) (i32.shl (i32.add (local.get $left) (i32.const 1)) (i32.const 3))))
                              (f64.load (i32.add (global.get $heap) (i32.shl (local.get $left) (i32.const 3)))))
                          (then (local.set $child (i32.add (local.get $left) (i32.const 1)))))))
                    (br_if $placed (f64.ge (f64.load (i32.add (global.get $heap) (i32.shl (local.get $child) (i32.const 3)))) (local.get $key)))
                    (f64.store (i32.add (global.get $heap) (i32.shl (local.get $at) (i32.const 3)))
                      (f64.load (i32.add (global.get $heap) (i32.shl (local.get $child) (i32.const 3)))))
                    (local.set $at (local.get $child))
                    (br $down)))
                (f64.store (i32.add (global.get $heap) (i32.shl (local.get $at) (i32.const 3))) (local.get $key))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    (local.get $size))
)
