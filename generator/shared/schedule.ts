/**
 * Scheduled publishing: the build writes when the next scheduled record goes live (SCHEDULE_PATH), and an
 * hourly job on the deployed site reads it and asks for a build once that time has come, so a scheduled
 * article appears within the hour with no push. Runtime-neutral: the job runs as a Netlify scheduled
 * function and in tests against a real local server.
 */
import { DATA_DIR } from './data-paths.ts';

export const SCHEDULE_PATH = `${DATA_DIR}/schedule.json`;

/** The file's content: the time the next scheduled record goes live (the start of its day, UTC), or null. */
export interface Schedule {
  next_publication: string | null;
  /** When the build that wrote it ran (its "today"): a build at or after the due time that still lists it cannot publish it. */
  built_at?: string;
}

export type ScheduleOutcome =
  | 'no schedule'
  | 'nothing due'
  | 'invalid schedule'
  | 'build cannot publish'
  | 'waiting'
  | 'build requested'
  | 'build hook failed';

const HOUR = 3_600_000;

/**
 * Whether a due publication should ask for a build now, and if not, why. A build already made at or after the
 * due time that still lists it will never publish it (its clock is fixed with SOURCE_DATE_EPOCH), so asking
 * again would rebuild every hour forever; and while the deploy does not change (the requested build fails),
 * the hook is asked 0, 1, 2, 4, 8, ... hours after the due time rather than every hour.
 */
function dueDecision(schedule: Schedule, due: number, now: Date): { ask: true } | { ask: false; outcome: ScheduleOutcome; why: string } {
  const builtAt = schedule.built_at ? Date.parse(schedule.built_at) : Number.NaN;
  if (builtAt >= due)
    return {
      ask: false,
      outcome: 'build cannot publish',
      why: `the deployed build ran at ${schedule.built_at}, after it was due, and did not publish it (is SOURCE_DATE_EPOCH set?); no build requested`,
    };
  const hours = Math.floor((now.getTime() - due) / HOUR);
  if (hours > 0 && (hours & (hours - 1)) !== 0) {
    const next = 2 ** Math.ceil(Math.log2(hours + 1));
    return {
      ask: false,
      outcome: 'waiting',
      why: `a build was requested and the deploy has not changed; asking again ${next} hours after it was due`,
    };
  }
  return { ask: true };
}

export interface ScheduleCheck {
  /** The deployed site's address. */
  siteUrl: string;
  /** The site's build hook; a POST to it starts a build. */
  buildHook: string;
  now: Date;
  fetch?: typeof fetch;
  log?: (line: string) => void;
}

/** Reads the deployed schedule and calls the build hook when the next publication is due. */
export async function checkSchedule({
  siteUrl,
  buildHook,
  now,
  fetch: fetchImpl = fetch,
  log = console.log,
}: ScheduleCheck): Promise<ScheduleOutcome> {
  let schedule: Schedule;
  try {
    const response = await fetchImpl(new URL(`/${SCHEDULE_PATH}`, siteUrl));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    schedule = (await response.json()) as Schedule;
  } catch (error) {
    log(
      `scheduled publishing: could not read ${SCHEDULE_PATH} from ${siteUrl} (${error instanceof Error ? error.message : String(error)}); will try again next hour`,
    );
    return 'no schedule';
  }
  const next = schedule.next_publication;
  const due = next === null ? Number.NaN : Date.parse(next);
  if (next !== null && !Number.isFinite(due)) {
    log(`scheduled publishing: ${SCHEDULE_PATH} says ${JSON.stringify(next)}, which is not a time; no build requested`);
    return 'invalid schedule';
  }
  if (next === null || due > now.getTime()) {
    log(`scheduled publishing: nothing due${next ? ` (next at ${next})` : ''}`);
    return 'nothing due';
  }
  const decision = dueDecision(schedule, due, now);
  if (!decision.ask) {
    log(`scheduled publishing: ${next} is due but ${decision.why}`);
    return decision.outcome;
  }
  try {
    const response = await fetchImpl(buildHook, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  } catch (error) {
    log(
      `scheduled publishing: ${next} is due but the build hook failed (${error instanceof Error ? error.message : String(error)}); will try again next hour`,
    );
    return 'build hook failed';
  }
  log(`scheduled publishing: ${next} is due; build requested`);
  return 'build requested';
}
