/**
 * How large a content file may be (the scan refuses larger ones: scan-content.ts), apart from the scan, so that
 * the build's settings, which threads read, do not load the scan's checks (the SVG parser among them).
 */
export interface ContentLimits {
  /** Largest Markdown or YAML file, in bytes. */
  textBytes: number;
  /** Largest image, in bytes. */
  imageBytes: number;
}

/** Limits a real site never meets: a 1 MB Markdown file is a short book; a 10 MB image is a poster. */
export const DEFAULT_LIMITS: ContentLimits = { textBytes: 1024 * 1024, imageBytes: 10 * 1024 * 1024 };
