/**
 * Content is data, never code, and nothing outside the content folder is read: planted files that try to run
 * code, reach outside through links, expand to gigabytes or put script in an image each become a problem
 * naming the file, and nothing of them is run, read or published.
 */
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import { ContentError } from '../../generator/pipeline/problems.ts';
import { BUILD_ENV, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { problemsOf } from '../helpers/content-problems.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';
import { scratchDir } from '../helpers/scratch.ts';

const outside: string[] = [];
afterAll(() => {
  removeFixtureDirs();
  removeBuildDirs();
  for (const dir of outside) rmSync(dir, { recursive: true, force: true });
});

/** A folder outside the content folder, as a build machine's other files are. */
function outsideDir(): string {
  const dir = scratchDir('outside');
  outside.push(dir);
  return dir;
}

const ARTICLE = (front: string, body = 'Body text.') => `${front}\n---\n${body}\n`;
const VALID_ARTICLE_FIELDS = 'title: Planted\nsummary: A planted article.\ndate: 2026-01-05\nauthor: Someone\ntopics: [agentic-commerce]';

describe('front matter in another language', () => {
  it.each(['js', 'javascript', 'json', 'coffee', 'JavaScript'])('refuses ---%s at line 1 and never runs it', async (language) => {
    const content = fixtureDir('valid');
    const marker = path.join(outsideDir(), 'ran');
    const code = `{ title: (require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'), 'Planted') }`;
    writeFileSync(path.join(content, 'intelligence', 'planted.md'), ARTICLE(`---${language}\n${code}`));
    const problems = await problemsOf(content);
    expect(problems).toContainEqual({
      file: 'intelligence/planted.md',
      line: 1,
      field: '-',
      message: expect.stringContaining(`front matter must be YAML: the file opens with "---${language}"`),
    });
    expect(existsSync(marker)).toBe(false);
  });

  it('accepts ---yaml as YAML', async () => {
    const content = fixtureDir('valid');
    writeFileSync(path.join(content, 'intelligence', 'planted.md'), ARTICLE(`---yaml\n${VALID_ARTICLE_FIELDS}`));
    expect(await problemsOf(content)).toEqual([]);
  });
});

describe('symbolic links', () => {
  it('refuses a linked image and does not publish what it points to', async () => {
    const content = fixtureDir('valid');
    const secret = path.join(outsideDir(), 'secret.svg');
    writeFileSync(secret, '<svg xmlns="http://www.w3.org/2000/svg"><!-- secret --></svg>');
    const image = path.join(content, 'images', 'resources', 'rag-evaluation-guide.svg');
    rmSync(image);
    symlinkSync(secret, image);
    const problems = await problemsOf(content);
    expect(problems).toContainEqual(
      expect.objectContaining({ file: 'images/resources/rag-evaluation-guide.svg', message: expect.stringContaining('symbolic link') }),
    );
    const out = path.join(tempDir('links'), 'dist');
    await expect(buildSite({ contentDir: content, outDir: out, env: BUILD_ENV })).rejects.toBeInstanceOf(ContentError);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a linked Markdown file from outside and makes no record of it', async () => {
    const content = fixtureDir('valid');
    const planted = path.join(outsideDir(), 'planted.md');
    writeFileSync(planted, ARTICLE(`---\n${VALID_ARTICLE_FIELDS}`));
    symlinkSync(planted, path.join(content, 'intelligence', 'planted.md'));
    const raw = await loadContent(content);
    expect(raw.records.intelligence!.map((record) => record.file)).not.toContain('intelligence/planted.md');
    expect(raw.problems).toContainEqual(
      expect.objectContaining({ file: 'intelligence/planted.md', line: 1, message: expect.stringContaining('symbolic link') }),
    );
  });

  it('refuses a linked folder and reads nothing behind it', async () => {
    const content = fixtureDir('valid');
    const elsewhere = outsideDir();
    writeFileSync(path.join(elsewhere, 'planted.md'), ARTICLE(`---\n${VALID_ARTICLE_FIELDS}`));
    rmSync(path.join(content, 'services'), { recursive: true });
    symlinkSync(elsewhere, path.join(content, 'services'));
    const raw = await loadContent(content);
    expect(raw.records.services).toEqual([]);
    expect(raw.problems).toContainEqual(expect.objectContaining({ file: 'services', message: expect.stringContaining('symbolic link') }));
  });
});

describe('size and expansion limits', () => {
  it('refuses a Markdown file over the text limit before reading it', async () => {
    const content = fixtureDir('valid');
    writeFileSync(path.join(content, 'intelligence', 'huge.md'), ARTICLE(`---\n${VALID_ARTICLE_FIELDS}`, 'word '.repeat(5000)));
    const problems = await problemsOf(content, { textBytes: 10 * 1024, imageBytes: 1024 * 1024 });
    expect(problems).toContainEqual({
      file: 'intelligence/huge.md',
      line: 1,
      field: '-',
      message: 'is 25 KB, over the limit of 10 KB (MAX_TEXT_KB)',
    });
  });

  it('refuses an image over the image limit', async () => {
    const content = fixtureDir('valid');
    writeFileSync(path.join(content, 'images', 'resources', 'big.png'), Buffer.alloc(3 * 1024 * 1024));
    const problems = await problemsOf(content, { textBytes: 1024 * 1024, imageBytes: 2 * 1024 * 1024 });
    expect(problems).toContainEqual({
      file: 'images/resources/big.png',
      line: 1,
      field: '-',
      message: 'is 3.0 MB, over the limit of 2.0 MB (MAX_IMAGE_MB)',
    });
  });

  it('refuses front matter whose aliases expand a small file into a huge record', async () => {
    const content = fixtureDir('valid');
    const aliases = Array.from({ length: 2000 }, (_, i) => `  - *big # ${i}`).join('\n');
    writeFileSync(
      path.join(content, 'intelligence', 'bomb.md'),
      ARTICLE(`---\n${VALID_ARTICLE_FIELDS}\nbig: &big ${'x'.repeat(5000)}\ntags:\n${aliases}`),
    );
    const problems = await problemsOf(content);
    expect(problems).toContainEqual(expect.objectContaining({ file: 'intelligence/bomb.md', message: expect.stringContaining('aliases') }));
  });

  it('refuses an alias bomb in a YAML list file, naming the file', async () => {
    const content = fixtureDir('valid');
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (const [name, previous] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
      ['f', 'e'],
    ])
      lines.push(
        `${name}: &${name} [*${previous},*${previous},*${previous},*${previous},*${previous},*${previous},*${previous},*${previous},*${previous},*${previous}]`,
      );
    writeFileSync(path.join(content, 'categories.yaml'), `${lines.join('\n')}\n`);
    const problems = await problemsOf(content);
    expect(problems).toContainEqual(expect.objectContaining({ file: 'categories.yaml', message: expect.stringContaining('aliases') }));
  });

  it.each([
    ['in this thread', false],
    ['with a helper thread rendering most bodies, as npm run build does', true],
  ])(
    'names the file when a body cannot be rendered (%s)',
    async (_name, helperThread) => {
      const content = fixtureDir('valid');
      writeFileSync(path.join(content, 'intelligence', 'deep.md'), ARTICLE(`---\n${VALID_ARTICLE_FIELDS}`, `${'>'.repeat(60_000)} x`));
      const build = buildSite({ contentDir: content, outDir: path.join(tempDir('deep'), 'dist'), env: BUILD_ENV, helperThread });
      await expect(build).rejects.toThrow(/^intelligence\/deep\.md: the body could not be rendered as Markdown/);
    },
    60_000,
  );

  it.each([
    ['in this thread', false],
    ['with a helper thread rendering most bodies, as npm run build does', true],
  ])(
    'refuses a body that would hold the renderer for minutes, naming the file, the field and the line (%s)',
    async (_name, helperThread) => {
      const content = fixtureDir('valid');
      writeFileSync(
        path.join(content, 'intelligence', 'slow.md'),
        ARTICLE(`---\n${VALID_ARTICLE_FIELDS}`, `Prose.\n\n${'**a,'.repeat(25_000)}`),
      );
      const build = buildSite({ contentDir: content, outDir: path.join(tempDir('slow'), 'dist'), env: BUILD_ENV, helperThread });
      await expect(build).rejects.toThrow(/^intelligence\/slow\.md:10: body: from about this line, /);
    },
    60_000,
  );
});

describe('images that could run script', () => {
  it.each([
    ['a script element', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'the element <script>'],
    ['an event handler', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>', 'the attribute onload'],
    [
      'a javascript: link',
      '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><text>x</text></a></svg>',
      'the element <a>',
    ],
  ])('refuses an SVG with %s', async (_name, svg, words) => {
    const content = fixtureDir('valid');
    writeFileSync(path.join(content, 'images', 'resources', 'rag-evaluation-guide.svg'), svg);
    const problems = await problemsOf(content);
    expect(problems).toContainEqual(
      expect.objectContaining({ file: 'images/resources/rag-evaluation-guide.svg', message: expect.stringContaining(words) }),
    );
  });

  it('accepts a plain SVG', async () => {
    const content = fixtureDir('valid');
    mkdirSync(path.join(content, 'images', 'extra'), { recursive: true });
    writeFileSync(
      path.join(content, 'images', 'extra', 'plain.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"/></svg>',
    );
    expect(await problemsOf(content)).toEqual([]);
  });
});
