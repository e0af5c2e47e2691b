/**
 * The best results so far, by rounded score (in ten-thousandths) and then document number (docs/api.md
 * "Records": score, then type, then id, which is document order). Each result is one number, its score
 * above its inverted document number, so plain numeric comparison ranks them; a min-heap of the page's size
 * keeps the best, or every one when the capacity is infinite. Runtime-neutral.
 */
export class Heap {
  private readonly keys: number[] = [];
  /** Each kept result's score before rounding, beside its key. */
  private readonly raws: number[] = [];
  private readonly span: number;

  constructor(
    private readonly capacity: number,
    documents: number,
  ) {
    this.span = 2 ** Math.ceil(Math.log2(documents + 1));
  }

  full(): boolean {
    return this.keys.length >= this.capacity;
  }

  /** The score units of the lowest result kept (the heap is full). */
  lowestUnits(): number {
    return Math.floor(this.keys[0]! / this.span);
  }

  /** Offers a result (its rounded units, document and score before rounding). */
  push(units: number, document: number, raw: number): void {
    const key = units * this.span + (this.span - 1 - document);
    const { keys, raws } = this;
    if (!Number.isSafeInteger(key)) throw new Error('search: score out of range');
    if (keys.length < this.capacity) {
      keys.push(key);
      raws.push(raw);
      if (this.capacity !== Number.POSITIVE_INFINITY) this.up(keys.length - 1);
    } else if (key > keys[0]!) {
      keys[0] = key;
      raws[0] = raw;
      this.down(0);
    }
  }

  /** Every result kept, best first. */
  sorted(): { units: number; document: number; raw: number }[] {
    const order = Float64Array.from(this.keys.keys()).sort((a, b) => this.keys[b]! - this.keys[a]!);
    return Array.from(order, (index) => {
      const key = this.keys[index]!;
      const units = Math.floor(key / this.span);
      return { units, document: this.span - 1 - (key - units * this.span), raw: this.raws[index]! };
    });
  }

  private swap(a: number, b: number): void {
    const { keys, raws } = this;
    const key = keys[a]!;
    const raw = raws[a]!;
    keys[a] = keys[b]!;
    raws[a] = raws[b]!;
    keys[b] = key;
    raws[b] = raw;
  }

  private up(at: number): void {
    const { keys } = this;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (keys[parent]! <= keys[at]!) break;
      this.swap(at, parent);
      at = parent;
    }
  }

  private down(at: number): void {
    const { keys } = this;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= keys.length) break;
      if (child + 1 < keys.length && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= keys[at]!) break;
      this.swap(at, child);
      at = child;
    }
  }
}
