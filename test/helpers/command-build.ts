/**
 * A build as `npm run build -- --in-place` runs it: the content's witnesses checked, then a build that takes
 * what the last one kept beside the output (its tracked outputs, kept values and orders, its loads), recorded.
 */
import { fingerprintBuild, recordBuild } from '../../generator/pipeline/build-fingerprint.ts';
import { resolveBuildSettings } from '../../generator/pipeline/build-settings.ts';
import { type BuildOptions, type BuildResult, buildSite } from '../../generator/pipeline/build-site.ts';
import { BUILD_ENV } from './build-output.ts';

/** `more`: options besides the command's (`verifyCarried`, say). */
export async function buildAsCommand(contentDir: string, outDir: string, more: Partial<BuildOptions> = {}): Promise<BuildResult> {
  const inputs = { contentDir, outDir, settings: resolveBuildSettings(BUILD_ENV) };
  const checked = fingerprintBuild(inputs);
  const result = await buildSite({ ...inputs, inPlace: true, keepLoads: true, scope: 'test', changed: checked.changed, ...more });
  recordBuild(outDir, checked, {}, { identity: result.identity, output: result.stamp });
  return result;
}
