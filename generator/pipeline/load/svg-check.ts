/**
 * An SVG is a document that can run script on the site's origin when it is opened on its own, so the build
 * publishes only SVGs that are drawings: parsed by a strict XML parser (saxes: well-formedness and
 * namespaces as XML 1.0 defines them, in one pass over the text), every element and attribute on an
 * allow-list, no DTD (which could define entities), no processing instruction, no link or `url()` that
 * leaves the image. Anything else refuses the file, naming what was found and its line. Patterns over the
 * text were the former check, and missed `<svg:script>`, a `>` inside an earlier attribute and entities.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** Drawing, text, grouping, paint servers, clipping and filters: nothing that runs, embeds, links out or animates. */
const ELEMENTS = new Set(
  [
    'svg g defs symbol use title desc metadata switch',
    'path rect circle ellipse line polyline polygon text tspan textPath',
    'linearGradient radialGradient stop pattern clipPath mask marker filter',
    'feBlend feColorMatrix feComponentTransfer feComposite feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR',
    'feGaussianBlur feMerge feMergeNode feMorphology feOffset feTile feTurbulence',
  ]
    .join(' ')
    .split(' '),
);

/** Geometry, presentation and accessibility attributes; no event handler (`on...`) is among them. */
const ATTRIBUTES = new Set(
  [
    'id class style lang tabindex role version baseProfile viewBox preserveAspectRatio width height x y x1 y1 x2 y2',
    'cx cy r rx ry fx fy fr d points pathLength transform href dx dy rotate textLength lengthAdjust startOffset method spacing',
    'fill fill-opacity fill-rule stroke stroke-width stroke-opacity stroke-linecap stroke-linejoin stroke-miterlimit',
    'stroke-dasharray stroke-dashoffset opacity color display visibility overflow clip clip-path clip-rule mask filter',
    'font-family font-size font-style font-weight font-variant font-stretch text-anchor dominant-baseline',
    'alignment-baseline baseline-shift letter-spacing word-spacing text-decoration writing-mode direction',
    'vector-effect paint-order shape-rendering text-rendering image-rendering color-interpolation',
    'color-interpolation-filters flood-color flood-opacity lighting-color stop-color stop-opacity offset',
    'gradientUnits gradientTransform spreadMethod patternUnits patternContentUnits patternTransform',
    'clipPathUnits maskUnits maskContentUnits filterUnits primitiveUnits markerUnits markerWidth markerHeight',
    'refX refY orient marker-start marker-mid marker-end in in2 result mode operator k1 k2 k3 k4 values type',
    'stdDeviation edgeMode radius tableValues slope intercept amplitude exponent baseFrequency numOctaves seed',
    'stitchTiles requiredExtensions systemLanguage focusable',
  ]
    .join(' ')
    .split(' '),
);

export interface SvgProblem {
  line: number;
  message: string;
}

const isAllowedName = (local: string) => ATTRIBUTES.has(local) || local.startsWith('aria-') || local.startsWith('data-');

/** Whether every `url(` in `value` points inside the image (`url(#id)`); scanned once, no pattern. */
function urlsStayInside(value: string): boolean {
  for (let at = value.indexOf('url('); at !== -1; at = value.indexOf('url(', at + 4)) {
    let next = at + 4;
    while (value[next] === ' ' || value[next] === '"' || value[next] === "'") next++;
    if (value[next] !== '#') return false;
  }
  return true;
}

/** Why one attribute cannot be published, or null. */
function attributeProblem(name: string, uri: string, local: string, value: string): string | null {
  if (uri === XMLNS_NS || (uri === XML_NS && (local === 'space' || local === 'lang'))) return null;
  const isHref = (uri === '' && local === 'href') || (uri === XLINK_NS && local === 'href');
  if (isHref) return value.trimStart().startsWith('#') ? null : `a link out of the image (${name}="${value.slice(0, 40)}")`;
  if (uri !== '' || !isAllowedName(local)) return `the attribute ${name}`;
  if (value.includes('@import') || !urlsStayInside(value)) return `the attribute ${name} with a value that reaches outside the image`;
  return null;
}

/** Why one element cannot be published, or null. */
function elementProblem(tag: SaxesTagNS): string | null {
  if (tag.uri !== SVG_NS || !ELEMENTS.has(tag.local)) return `the element <${tag.name}>`;
  for (const attribute of Object.values(tag.attributes)) {
    const problem = attributeProblem(attribute.name, attribute.uri, attribute.local, attribute.value);
    if (problem) return problem;
  }
  return null;
}

/**
 * Deepest nesting accepted. The parser resolves a namespace prefix by walking up the open elements, so its
 * cost per element grows with the depth; a cap keeps the whole check linear in the file (drawings from
 * design tools nest a few levels; 65,000 nested groups took minutes).
 */
const MAX_DEPTH = 64;

/** Thrown from the parser's handlers to stop it at the first problem. */
class Refused extends Error {}

/** The first reason `text` is not a plain drawing, with its line; null when it is one. */
export function checkSvg(text: string): SvgProblem | null {
  const parser = new SaxesParser({ xmlns: true, position: true });
  let found: SvgProblem | null = null;
  let depth = 0;
  const refuse = (what: string, prefix = 'the SVG holds ', suffix = '; an image may hold only drawing (see docs/security.md)') => {
    found = { line: parser.line, message: `${prefix}${what}${suffix}` };
    throw new Refused();
  };
  parser.on('doctype', () => refuse('a DOCTYPE (a DTD can define entities and load files)'));
  parser.on('processinginstruction', (pi) => refuse(`a processing instruction <?${pi.target}?>`));
  parser.on('opentagstart', () => {
    if (++depth > MAX_DEPTH) refuse(`elements nested more than ${MAX_DEPTH} deep`);
  });
  parser.on('closetag', () => depth--);
  parser.on('opentag', (tag) => {
    const problem = elementProblem(tag);
    if (problem) refuse(problem);
  });
  parser.on('error', (error) => refuse(error.message.replace(/^[^:]*:\d+:\d+: /, ''), 'the SVG is not well-formed XML: ', ''));
  try {
    // In slices, so that a file refused early is not parsed to its end.
    const SLICE = 64 * 1024;
    for (let at = 0; at < text.length; at += SLICE) parser.write(text.slice(at, at + SLICE));
    parser.close();
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
  }
  return found;
}
