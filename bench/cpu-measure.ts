/**
 * The CPU and wall time of a piece of work in this process, as the search benches' scripts measure a search
 * (run under Deno or Node: the process's user and system time around it).
 */
import process from 'node:process';

/** CPU milliseconds this process has used since `since`. */
const cpuMs = (since: ReturnType<typeof process.cpuUsage>) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** CPU and wall milliseconds of `run`. */
export async function measure(run: () => Promise<unknown>) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  return { cpuMs: cpuMs(cpu), wallMs: performance.now() - started };
}
