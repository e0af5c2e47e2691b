/**
 * Content files built to attack the site or the build machine, second round: SVGs that slip script past a
 * pattern check (a namespace prefix, a `>` inside an attribute, DTD entities), files swapped for links
 * after the scan, and text that is not UTF-8. Each is refused with its file and line, and nothing of it is
 * published.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';

import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import { FileChangedError, readApproved } from '../../generator/pipeline/load/read-approved.ts';
import { scanContent } from '../../generator/pipeline/load/scan-content.ts';
import { DEFAULT_LIMITS } from '../../generator/pipeline/load/content-limits.ts';
import { checkSvg } from '../../generator/pipeline/load/svg-check.ts';
import { ContentError } from '../../generator/pipeline/problems.ts';
import { BUILD_ENV, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { problemsOf } from '../helpers/content-problems.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

afterAll(() => {
  removeFixtureDirs();
  removeBuildDirs();
});

const SVG = (inner: string, attributes = '') => `<svg xmlns="http://www.w3.org/2000/svg"${attributes}>${inner}</svg>`;
const IMAGE = 'images/resources/rag-evaluation-guide.svg';

describe('SVGs are parsed as XML and only drawing is kept', () => {
  it.each([
    [
      'a script with a namespace prefix',
      '<svg:svg xmlns:svg="http://www.w3.org/2000/svg"><svg:script>alert(1)</svg:script></svg:svg>',
      '<svg:script>',
    ],
    ['a ">" inside an earlier attribute', SVG('<rect class="a>b" onclick="alert(1)"/>'), 'the attribute onclick'],
    ['DTD entities', `<!DOCTYPE svg [<!ENTITY x "&#60;script&#62;alert(1)&#60;/script&#62;">]>\n${SVG('&x;')}`, 'a DOCTYPE'],
    ['an entity no DTD defines', SVG('<text>&x;</text>'), 'not well-formed XML'],
    ['a foreignObject', SVG('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>'), '<foreignObject>'],
    ['a script in upper case', SVG('<SCRIPT>alert(1)</SCRIPT>'), '<SCRIPT>'],
    ['an animation that rewrites a link', SVG('<set attributeName="href" to="javascript:alert(1)"/>'), '<set>'],
    ['a use of another document', SVG('<use href="https://evil.example/x.svg#a"/>'), 'a link out of the image'],
    [
      'an xlink to script',
      SVG('<use xlink:href="javascript:alert(1)"/>', ' xmlns:xlink="http://www.w3.org/1999/xlink"'),
      'a link out of the image',
    ],
    ['a style that loads from elsewhere', SVG('<rect style="fill: url( \'https://evil.example/x\')"/>'), 'reaches outside the image'],
    ['an element of another namespace', SVG('<x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>'), '<x:script>'],
    ['a stylesheet instruction', `<?xml-stylesheet href="https://evil.example/x.css"?>${SVG('')}`, '<?xml-stylesheet?>'],
    ['an image that is not XML', SVG('<rect>'), 'not well-formed XML'],
    ['no SVG namespace at all', '<svg><rect/></svg>', 'the element <svg>'],
  ])('refuses %s', (_name, svg, words) => {
    expect(checkSvg(svg)?.message).toContain(words);
  });

  it('names the line the problem is on', () => {
    expect(checkSvg(`<svg xmlns="http://www.w3.org/2000/svg">\n<rect/>\n<rect onload="x()"/>\n</svg>`)?.line).toBe(3);
  });

  it('accepts drawings: gradients, local references, text, and every image of the real content', () => {
    const drawing = SVG(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><path id="p" d="M0 0h9"/></defs>' +
        '<title>Chart</title><rect fill="url(#g)" width="9" height="9"/><use href="#p"/><text x="1" y="2">a &amp; b</text>',
      ' viewBox="0 0 9 9" role="img" aria-label="chart"',
    );
    expect(checkSvg(`<?xml version="1.0" encoding="UTF-8"?>\n${drawing}`)).toBeNull();
    const images = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? images(path.join(dir, entry.name)) : entry.name.endsWith('.svg') ? [path.join(dir, entry.name)] : [],
      );
    const real = images('content/images');
    expect(real.length).toBeGreaterThan(5);
    for (const file of real) expect(checkSvg(readFileSync(file, 'utf8')), file).toBeNull();
  });

  it('fails the build on such an image, naming the file and line, and publishes nothing', async () => {
    const content = fixtureDir('valid');
    writeFileSync(
      path.join(content, IMAGE),
      `<svg xmlns="http://www.w3.org/2000/svg"\n  xmlns:svg="http://www.w3.org/2000/svg">\n<svg:script>alert(1)</svg:script></svg>`,
    );
    expect(await problemsOf(content)).toContainEqual({
      file: IMAGE,
      line: 3,
      field: '-',
      message: expect.stringContaining('<svg:script>'),
    });
    const out = path.join(tempDir('svg'), 'dist');
    await expect(buildSite({ contentDir: content, outDir: out, env: BUILD_ENV })).rejects.toBeInstanceOf(ContentError);
  });
});

describe('a file swapped after the scan', () => {
  it('is not followed when an image becomes a link before it is copied', async () => {
    const content = fixtureDir('valid');
    const raw = await loadContent(content);
    const secret = path.join(tempDir('outside'), 'secret.svg');
    writeFileSync(secret, SVG('<title>build machine secret</title>'));
    rmSync(path.join(content, IMAGE));
    symlinkSync(secret, path.join(content, IMAGE));
    expect(() => raw.readImage(`/${IMAGE}`)).toThrow(FileChangedError);
  });

  it('is not followed when a folder above it becomes a link', async () => {
    const content = fixtureDir('valid');
    const raw = await loadContent(content);
    const elsewhere = tempDir('outside');
    mkdirSync(path.join(elsewhere, 'resources'));
    writeFileSync(path.join(elsewhere, 'resources', path.basename(IMAGE)), SVG('<title>build machine secret</title>'));
    renameSync(path.join(content, 'images', 'resources'), path.join(content, 'images', 'moved'));
    symlinkSync(path.join(elsewhere, 'resources'), path.join(content, 'images', 'resources'));
    expect(() => raw.readImage(`/${IMAGE}`)).toThrow(FileChangedError);
  });

  it('is not read when a Markdown file is replaced after the scan', async () => {
    const content = fixtureDir('valid');
    const scan = await scanContent(content, DEFAULT_LIMITS);
    const [file] = [...scan.readable].filter((name) => name.endsWith('.md'));
    const replacement = path.join(tempDir('outside'), 'other.md');
    writeFileSync(replacement, '---\ntitle: other\n---\n');
    rmSync(path.join(content, file!));
    symlinkSync(replacement, path.join(content, file!));
    expect(() => readApproved(content, file!, scan.identities.get(file!)!)).toThrow(FileChangedError);
  });

  it('publishes the image bytes the scan approved', async () => {
    const content = fixtureDir('valid');
    const out = path.join(tempDir('images'), 'dist');
    await buildSite({ contentDir: content, outDir: out, env: BUILD_ENV });
    expect(readFileSync(path.join(out, IMAGE))).toEqual(readFileSync(path.join(content, IMAGE)));
  });
});

describe('text that is not UTF-8', () => {
  const latin1 = (text: string) => Buffer.from(text, 'latin1');

  it('is refused with the line of the first bad byte, in Markdown, YAML and SVG', async () => {
    const content = fixtureDir('valid');
    const [article] = readdirSync(path.join(content, 'intelligence'));
    const original = readFileSync(path.join(content, 'intelligence', article!), 'utf8').split('\n');
    original[2] = `${original[2]} caf\u00e9`;
    writeFileSync(path.join(content, 'intelligence', article!), latin1(original.join('\n')));
    writeFileSync(path.join(content, IMAGE), latin1(`<svg xmlns="http://www.w3.org/2000/svg">\n<title>\u00e9</title></svg>`));
    const problems = await problemsOf(content);
    expect(problems).toContainEqual({
      file: `intelligence/${article}`,
      line: 3,
      field: '-',
      message: expect.stringContaining('is not UTF-8 text'),
    });
    expect(problems).toContainEqual({ file: IMAGE, line: 2, field: '-', message: expect.stringContaining('is not UTF-8 text') });
  });

  it('accepts UTF-8, U+FFFD written as itself included', async () => {
    const content = fixtureDir('valid');
    const [article] = readdirSync(path.join(content, 'intelligence'));
    const file = path.join(content, 'intelligence', article!);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nCaf\u00e9 \u{1F600} \uFFFD\n`);
    expect(await problemsOf(content)).toEqual([]);
  });

  it('refuses overlong forms and surrogates that a lenient decoder would accept', async () => {
    const content = fixtureDir('valid');
    const file = path.join(content, 'site.yaml');
    const text = readFileSync(file);
    writeFileSync(file, Buffer.concat([text, Buffer.from('\n# \xc0\xaf \xed\xa0\x80\n', 'latin1')]));
    const line = text.toString().split('\n').length + 1;
    expect(await problemsOf(content)).toContainEqual({
      file: 'site.yaml',
      line,
      field: '-',
      message: expect.stringContaining('is not UTF-8 text'),
    });
  });
});
