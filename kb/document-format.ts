import YAML from 'yaml';
import { z } from 'zod';
import { KhIdSchema } from './kh-id';
import { SensitivitySchema } from './sensitivity';

/**
 * The hub's frontmatter schema: what every hub document carries (connector output and curated files alike).
 * Required: `id` (the kh-id) and `sensitivity` (never defaulted: a missing level must not read as public).
 * Other fields pass through untouched, so a connector may add its own.
 */
export const HubFrontmatterSchema = z.looseObject({
  id: KhIdSchema,
  sensitivity: SensitivitySchema,
  title: z.string().trim().min(1).max(500).optional(),
  tags: z.array(z.string().trim().min(1).max(100)).max(100).default([]),
  source_id: z.string().min(1).max(1000).optional(),
  source_url: z.url().optional(),
  source_hash: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/, 'sha256: and 64 lowercase hex digits')
    .optional(),
  created_at: z.iso.datetime({ offset: true }).optional(),
  updated_at: z.iso.datetime({ offset: true }).optional(),
});
export type HubFrontmatter = z.infer<typeof HubFrontmatterSchema>;

export class DocumentFormatError extends Error {
  override name = 'DocumentFormatError';
}

export interface HubDocument {
  frontmatter: HubFrontmatter;
  /** The markdown after the frontmatter. */
  body: string;
  /** 1-based line of the file where the body starts, so chunk line numbers point into the file. */
  bodyStartLine: number;
  title: string;
}

const FENCE = /^---[ \t]*$/;

/** Splits `---\n<yaml>\n---\n<body>`; a file that does not open with `---` has no frontmatter. */
export function splitFrontmatter(raw: string): { yaml: string | undefined; body: string; bodyStartLine: number } {
  const text = raw.replace(/^\uFEFF/, '');
  const lines = text.split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? '')) return { yaml: undefined, body: text, bodyStartLine: 1 };
  const close = lines.findIndex((line, i) => i > 0 && (FENCE.test(line) || /^\.\.\.[ \t]*$/.test(line)));
  if (close < 0) throw new DocumentFormatError('frontmatter opened with --- is never closed');
  return { yaml: lines.slice(1, close).join('\n'), body: lines.slice(close + 1).join('\n'), bodyStartLine: close + 2 };
}

/** Parses a hub file; throws DocumentFormatError naming the bad field when it does not meet the hub's schema. */
export function parseHubDocument(raw: string, hubPath: string): HubDocument {
  const { yaml, body, bodyStartLine } = splitFrontmatter(raw);
  if (yaml === undefined) throw new DocumentFormatError('no frontmatter: a hub document starts with --- and YAML');
  let data: unknown;
  try {
    data = YAML.parse(yaml);
  } catch (err) {
    throw new DocumentFormatError(`frontmatter is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const parsed = HubFrontmatterSchema.safeParse(data ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'frontmatter'}: ${issue.message}`);
    throw new DocumentFormatError(`frontmatter: ${issues.join('; ')}`);
  }
  return { frontmatter: parsed.data, body, bodyStartLine, title: titleOf(parsed.data, body, hubPath) };
}

/** The file for a frontmatter and body; `parseHubDocument(renderHubDocument(f, b))` gives back f and b. */
export function renderHubDocument(frontmatter: Record<string, unknown>, body: string): string {
  return `---\n${YAML.stringify(frontmatter, { lineWidth: 0 })}---\n${body}`;
}

function titleOf(frontmatter: HubFrontmatter, body: string, hubPath: string): string {
  if (frontmatter.title) return frontmatter.title;
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(body);
  if (heading) return heading[1]!.trim();
  return hubPath.split('/').pop()!.replace(/\.md$/, '');
}
