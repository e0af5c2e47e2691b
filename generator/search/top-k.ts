/**
 * The best results so far, by rounded score (in ten-thousandths) and then document number (CONTRACT
 * "Ordering": score, then type, then id, which is document order). Each result is one number, its score
 * above its inverted document number, so plain numeric comparison ranks them; a min-heap of the page's size
 * keeps the best, or every one when the capacity is infinite. Runtime-neutral.
 */
export class Heap {
  private readonly keys: number[] = [];
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

  /** Offers a result; whether it is kept (for now). */
  push(units: number, document: number): boolean {
    const key = units * this.span + (this.span - 1 - document);
    const { keys } = this;
    if (!Number.isSafeInteger(key)) throw new Error('search: score out of range');
    if (this.capacity === Number.POSITIVE_INFINITY) {
      keys.push(key);
      return true;
    }
    if (keys.length < this.capacity) {
      keys.push(key);
      this.up(keys.length - 1);
      return true;
    }
    if (key <= keys[0]!) return false;
    keys[0] = key;
    this.down(0);
    return true;
  }

  /** Every result kept, best first. */
  sorted(): { units: number; document: number }[] {
    return [...this.keys]
      .sort((a, b) => b - a)
      .map((key) => {
        const units = Math.floor(key / this.span);
        return { units, document: this.span - 1 - (key - units * this.span) };
      });
  }

  private up(at: number): void {
    const { keys } = this;
    const key = keys[at]!;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[at] = keys[parent]!;
      at = parent;
    }
    keys[at] = key;
  }

  private down(at: number): void {
    const { keys } = this;
    const key = keys[at]!;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= keys.length) break;
      if (child + 1 < keys.length && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= key) break;
      keys[at] = keys[child]!;
      at = child;
    }
    keys[at] = key;
  }
}
