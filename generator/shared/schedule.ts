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
}

export type ScheduleOutcome = 'no schedule' | 'nothing due' | 'build requested' | 'build hook failed';

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
  if (next === null || Date.parse(next) > now.getTime()) {
    log(`scheduled publishing: nothing due${next ? ` (next at ${next})` : ''}`);
    return 'nothing due';
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
