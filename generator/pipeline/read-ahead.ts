/**
 * Work a build will need, done while it waits for an answer from another thread (cli.ts: the content's check,
 * content-check.ts), rather than after it: each step is run in turn, back to the event loop after each, until
 * the answer comes. What is not done by then is done when first asked, as without the read ahead. A build that
 * turns out to have nothing to do so spends on it no more than the answer's own time.
 */
export async function readAheadUntil<T>(answer: Promise<T>, steps: Iterable<() => unknown>): Promise<T> {
  let answered = false;
  const done = () => {
    answered = true;
  };
  answer.then(done, done);
  for (const step of steps) {
    if (answered) break;
    step();
    // setImmediate runs after the event loop's poll, which takes the thread's answer if it has come.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return answer;
}
