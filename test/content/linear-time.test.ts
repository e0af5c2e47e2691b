/**
 * Every parser and pattern that reads content or a request runs in time linear in its input. Each case
 * times the worst input we know of for one of them beside a typical input of the same size, and asks only
 * that the worst stays within a generous multiple of the typical (a quadratic one is hundreds of times
 * slower at these sizes: 200,000 `<` in an SVG took 16 s, 160,000 blank lines of front matter 13 s), and counts
 * CPU time, so the test does not flake on a loaded machine. The figures are printed.
 */
import { describe, expect, it } from 'vitest';
import { parseFrontMatterData, splitFrontMatter } from '../../generator/pipeline/load/front-matter.ts';
import { parseYaml } from '../../generator/pipeline/load/parse-yaml.ts';
import { decodeUtf8 } from '../../generator/pipeline/load/read-approved.ts';
import { checkSvg } from '../../generator/pipeline/load/svg-check.ts';
import { errorLine } from '../../generator/pipeline/load/yaml-error-line.ts';
import { renderMarkdown } from '../../generator/pipeline/outputs/render-markdown.ts';
import { toSearchText } from '../../generator/pipeline/outputs/search-documents.ts';
import { normalisePath } from '../../generator/server/static-files.ts';
import { nestedList } from '../helpers/markdown-inputs.ts';

const N = 200_000;
const RATIO = 10;
/** Below this, both are too quick to compare by ratio; a quadratic case at N is far above it. */
const FLOOR_MS = 300;

/**
 * The least CPU time (user and system, in ms) of three runs. CPU time, not wall time: on a loaded machine a
 * run waits for a core, and 200 ms of work took over 300 ms of wall time at a load average of 16.
 */
function time(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = process.cpuUsage();
    try {
      run();
    } catch {
      // Refusing the input is an answer too; only the time counts here.
    }
    const { user, system } = process.cpuUsage(started);
    best = Math.min(best, (user + system) / 1000);
  }
  return best;
}

const repeat = (unit: string, size = N) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const SVG = (inner: string) => `<svg xmlns="http://www.w3.org/2000/svg">${inner}</svg>`;
const PROSE = repeat('Agents compare [offers](https://example.test) and <em>pay</em> for things. ');

const CASES: { name: string; run: (input: string) => unknown; typical: string; worst: Record<string, string> }[] = [
  {
    name: 'front matter',
    run: parseFrontMatterData,
    typical: repeat('key: a plain value\n').replace(/key/g, () => `k${Math.random().toString(36).slice(2, 8)}`),
    worst: {
      'blank lines': `${repeat('\n')}x: 1`,
      'blank lines with spaces': `${repeat(' \n')}x: 1`,
      'an unclosed quote': `a: "${repeat('x\n')}`,
    },
  },
  {
    name: 'SVG check',
    run: checkSvg,
    typical: SVG(repeat('<rect x="1" y="2" width="3" height="4"/>')),
    worst: {
      '"<" again and again': SVG(repeat('<')),
      nesting: SVG(`${repeat('<g>', N / 2)}${repeat('</g>', N / 2)}`),
      'many attributes': SVG(`<rect ${Array.from({ length: N / 14 }, (_, i) => `data-a${i}="1"`).join(' ')}/>`),
      'many entities': SVG(`<text>${repeat('&amp;')}</text>`),
    },
  },
  {
    name: 'search text of a body',
    run: toSearchText,
    typical: PROSE,
    worst: { '<': repeat('<'), '[': repeat('['), '[a](': repeat('[a]('), 'lines of [': repeat('\n['), '![': repeat('![') },
  },
  {
    // The renderer's shortcuts (plain-text-run.ts, possible-blocks.ts) are asked once a token or block, each time
    // with the whole rest of the paragraph or body: reading all of it each time took 3.4 s for `a_ a_ …` and 5.6 s
    // for short paragraphs between headings at 100,000 characters. 50,000 keeps the renderer's cost in the suite
    // small. marked's own superlinear steps are counted and such a body refused (render-work.ts); CPU before that
    // at 50,000 characters is given for each, at 100,000 where 50,000 took under the floor.
    name: 'Markdown to HTML',
    run: renderMarkdown,
    typical: repeat('Agents compare [offers](https://example.test) and <em>pay</em> for things. ', N / 4),
    worst: {
      'a_ again and again': repeat('a_ ', N / 4),
      'a! again and again': repeat('a! ', N / 4),
      'a < again and again': repeat('a <', N / 4),
      'short paragraphs between headings': repeat('x\n# h\n', N / 4),
      'short paragraphs between fences': repeat('x\n```\n', N / 4),
      // plainTextRun read on to its run's end past a character that rules out its answer: 9.7 s and 5.5 s at 100,000.
      'a@ again and again': repeat('a@', N / 4),
      'lines ending in two spaces': repeat('a  \n', N / 4),
      // marked's table pattern reads on through every row-like line before its step refuses the underline: 4.0 s.
      'setext headings': repeat('x\n-\n', N / 4),
      'a* again and again (0.6 s)': repeat('a*', N / 4),
      'strong openers that never close (over 20 s)': repeat('**a,', N / 4),
      '_*a again and again (22.7 s)': repeat('_*a', N / 4),
      'tildes that never close (0.9 s)': repeat('about ~5 or ~10 items, ~~struck~~ text ', N / 4),
      'emphasis nested deep (1.7 s at 100,000)': `${repeat('*a', N / 4)}${repeat('*', N / 4)}`,
      'quoted and unquoted lines (1.9 s at 100,000)': repeat('x\n> q\n', N / 2),
      'a list nested deep (0.7 s at 200,000)': nestedList(N),
      'processing instructions that never close (1.5 s at 200,000)': repeat('a <?', N),
      'a link ended by parentheses (4.2 s at 100,000)': ` http://a.b${')'.repeat(N / 2)}`,
      'links that each open a parenthesis (1.4 s at 100,000)': repeat('www.a.b(', N / 2),
      'links whose text opens an HTML comment (0.67 s at 200,000)': repeat('[<!-- a](u)', N),
      'links without a space between (1.1 s at 200,000)': repeat('[a](u)', N),
    },
  },
  {
    name: 'YAML file',
    run: (text) => parseYaml(text),
    typical: repeat('- id: some-id\n  name: A name\n'),
    worst: {
      'nested brackets (a few KB of them crashed the process)': repeat('['),
      'keys of one map': Array.from({ length: N / 12 }, (_, i) => `key${i}: 1`).join('\n'),
    },
  },
  {
    name: 'YAML error line',
    run: (text) => errorLine(text, 1, 1),
    typical: repeat('key: value\n'),
    worst: { quotes: repeat('"'), brackets: repeat('[') },
  },
  {
    name: 'front matter split',
    run: splitFrontMatter,
    typical: `---\n${repeat('a: b\n')}---\n`,
    worst: { 'no line end': `---${repeat(' ')}` },
  },
  {
    name: 'request path',
    run: normalisePath,
    typical: repeat('/abc'),
    worst: { 'dot segments': repeat('/..'), 'encoded dots': repeat('/%2e%2e') },
  },
  {
    name: 'UTF-8 check',
    run: (text) => decodeUtf8(Buffer.from(text, 'latin1')),
    typical: repeat('plain text\n'),
    worst: { 'bad byte at the end': `${repeat('\u00e9\n', N - 1)}\u00ff` },
  },
];

describe('linear time on every input', () => {
  for (const { name, run, typical, worst } of CASES) {
    it.each(Object.entries(worst))(`${name}: %s takes about as long as typical input of the same size`, (label, input) => {
      const typicalMs = time(() => run(typical));
      const worstMs = time(() => run(input));
      console.log(`${name}, ${label}: ${worstMs.toFixed(1)} ms against ${typicalMs.toFixed(1)} ms typical (${input.length} characters)`);
      expect(worstMs).toBeLessThan(Math.max(FLOOR_MS, typicalMs * RATIO));
    });
  }
});
