/** The schedule file (shared/schedule.ts): when the next scheduled record goes live, for the hourly job that asks for a build then. */
import { type Schedule, SCHEDULE_PATH } from '../../../shared/schedule.ts';
import type { OutputFile } from '../output-file.ts';

/**
 * `nextPublication`: the day (YYYY-MM-DD) the next record held back goes live, if any (none in a preview, which
 * holds nothing back); `builtAt`: the build's time, so the job can tell a build that ran too late to publish it.
 */
export function buildScheduleFile(nextPublication: string | undefined, builtAt: string): OutputFile {
  const schedule: Schedule = { next_publication: nextPublication ? `${nextPublication}T00:00:00Z` : null, built_at: builtAt };
  return { path: SCHEDULE_PATH, body: JSON.stringify(schedule) };
}
