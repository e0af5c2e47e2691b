/** `cli.ts check` as editors and CI run it: a real Node process, its exit code and what it prints. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureDir, removeFixtureDirs, VALID_FIXTURE } from '../helpers/fixture.ts';

afterAll(removeFixtureDirs);

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run check -- --content <dir>`'s command from the project folder. */
const runCheck = (contentDir: string) => runCli(['check', '--content', contentDir]);

/** Runs the generator's command line (`node generator/launch.mjs pipeline/cli.ts <args>`) from the project folder. */
async function runCli(cliArgs: string[], nodeArgs: string[] = []): Promise<Run> {
  const args = [...nodeArgs, 'generator/launch.mjs', 'pipeline/cli.ts', ...cliArgs];
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('cli.ts check', () => {
  it('exits 0 on a valid folder and prints the records of each collection, what a build publishes and what it leaves out', async () => {
    const run = await runCheck(VALID_FIXTURE);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe('  published: 2 services, 2 expertise, 2 technology, 2 intelligence, 2 resources');
    expect(lines[2]).toBe('  left out: 1 draft (1 in intelligence); --drafts includes them in a preview');
    expect(lines[0]).toBe(
      `${VALID_FIXTURE}: ok: 7 categories, 2 industries, 2 platforms, 3 technology categories, 2 topics, ` +
        '2 services, 2 expertise, 2 technology, 3 intelligence, 2 resources',
    );
  });

  it('exits 1 on a folder with problems and lists each as path:line: field: message, grouped by file', async () => {
    const dir = fixtureDir('several-problems');
    const run = await runCheck(dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('  '))).toEqual([
      expect.stringMatching(/^ {2}resources\/rag-evaluation-guide\.md:3: type: must be one of guide, template, checklist, research-report/),
      expect.stringMatching(/^ {2}services\/seo-audit\.md:5: category: unknown category "seo" \(one of categories\.yaml: /),
      expect.stringMatching(/^ {2}services\/seo-audit\.md:6: order: must be a whole number/),
    ]);
    expect(lines).toContain(`${dir}/resources/rag-evaluation-guide.md`);
    expect(lines).toContain(`${dir}/services/seo-audit.md`);
    expect(lines.at(-1)).toBe('3 problems in 2 files; nothing was built.');
  });

  it('loads the YAML parser that keeps source positions only when a problem asks for a line', async () => {
    // Printed as the process exits: whether the positions parser's library was ever loaded.
    const probe = `import { createRequire } from 'node:module';
      const { cache } = createRequire(process.cwd() + '/');
      process.on('exit', () => console.log('positions parser loaded: ' + Object.keys(cache).some((file) => file.includes('/node_modules/yaml/'))));`;
    const withProbe = (dir: string) =>
      runCli(['check', '--content', dir], ['--import', `data:text/javascript,${encodeURIComponent(probe)}`]);
    const valid = await withProbe(VALID_FIXTURE);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toContain('positions parser loaded: false');
    // A taxonomy's problem names its line: the probe sees the library loaded.
    const problem = await withProbe(fixtureDir('duplicate-list-id'));
    expect(problem.code).toBe(1);
    expect(problem.stderr).toContain('categories.yaml:30: id:');
    expect(problem.stdout).toContain('positions parser loaded: true');
  });

  it('prints no stack trace for content problems', async () => {
    const run = await runCheck(fixtureDir('several-problems'));
    expect(run.stderr).not.toMatch(/^ {4}at /m);
    expect(run.stderr).not.toContain('ContentError');
  });
});

describe('cli.ts arguments', () => {
  it.each([['check'], ['build']])('%s --help prints the usage and exits 0', async (command) => {
    const run = await runCli([command, '--help']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('npm run build [-- --content DIR --out DIR]');
    expect(run.stdout).toContain('SOURCE_DATE_EPOCH');
  });

  it('answers an unknown option with one line, the usage and exit 2, and no stack trace', async () => {
    const run = await runCli(['build', '--nope']);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe("error: Unknown option '--nope'");
    expect(run.stderr).toContain('Usage:');
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it('answers an unknown command and a missing value the same way', async () => {
    const unknown = await runCli(['publish']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe('error: unknown command "publish"; use check or build');
    const missing = await runCli(['check', '--content']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe("error: Option '--content <value>' argument missing");
  });

  it('says in one line that a content folder is not there', async () => {
    const run = await runCli(['check', '--content', 'no-such-folder']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('check failed: content folder not found: no-such-folder (pass --content DIR)');
  });
});
