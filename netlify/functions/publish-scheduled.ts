/**
 * Netlify scheduled function: every hour, asks for a build when a scheduled article is due, so it goes live
 * within the hour with no push (see generator/shared/schedule.ts). Needs BUILD_HOOK_URL (Site settings ->
 * Build & deploy -> Build hooks); Netlify provides URL, the site's address.
 */
import { checkSchedule } from '../../generator/shared/schedule.ts';

export default async function publishScheduled(): Promise<Response> {
  const siteUrl = process.env.URL;
  const buildHook = process.env.BUILD_HOOK_URL;
  if (!siteUrl || !buildHook) {
    console.log('scheduled publishing: set BUILD_HOOK_URL (a build hook of this site) to publish scheduled articles on time');
    return new Response(null, { status: 204 });
  }
  await checkSchedule({ siteUrl, buildHook, now: new Date() });
  return new Response(null, { status: 204 });
}

export const config = { schedule: '@hourly' };
