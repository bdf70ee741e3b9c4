/**
 * Designs: colour, typography and spacing tokens plus a layout choice. Keel ships a few (products/designs.yaml);
 * each org adds its own through `POST /v1/designs` (stored in PostgreSQL, see db/designs.ts). The same zod schema
 * checks both, and renders a design into the form a template asks for (CSS custom properties, a TS module, JSON).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { projectRoot } from '../config/paths';

const colour = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour like #1a2b3c');
// A CSS length Keel can put in a stylesheet unquoted: digits and a unit, nothing that could close a declaration.
const length = z.string().regex(/^\d+(?:\.\d+)?(?:px|rem|em)$/, 'must be a length like 16px, 1rem or 1.5em');
// A font stack: names, spaces, commas, quotes and dashes only, so it cannot inject CSS or code.
const fontStack = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9 ,'"-]+$/, 'must be a font stack like "Inter, system-ui, sans-serif"');

export const LAYOUTS = ['single-column', 'two-column', 'grid', 'sidebar'] as const;

export const designTokensSchema = z.strictObject({
  color: z.strictObject({ background: colour, text: colour, primary: colour, accent: colour }),
  typography: z.strictObject({ font_body: fontStack, font_heading: fontStack, size_base: length }),
  spacing: z.strictObject({ unit: length, max_width: length }),
});

export const designSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, 'must be a lowercase slug (letters, digits, single dashes)')
    .max(64),
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500).default(''),
  /** Words of a request that point at this design; selection scores by them. */
  keywords: z.array(z.string().trim().min(1).max(40)).max(30).default([]),
  tokens: designTokensSchema,
  layout: z.enum(LAYOUTS),
});

export type Design = z.infer<typeof designSchema>;
export type DesignTokens = z.infer<typeof designTokensSchema>;

export function shippedDesignsFile(): string {
  return path.join(projectRoot(), 'products', 'designs.yaml');
}

/** The designs Keel ships; the first is the default when nothing in a request points at another. */
export async function loadShippedDesigns(file: string = shippedDesignsFile()): Promise<Design[]> {
  const parsed = z
    .strictObject({ designs: z.array(designSchema).min(1) })
    .safeParse(parse(await readFile(file, 'utf8')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`${file}: invalid designs\n  ${problems.join('\n  ')}`);
  }
  return parsed.data.designs;
}

/** The design as the file a template names: CSS custom properties, a TypeScript module or JSON. */
export function renderDesign(design: Design, format: 'css' | 'ts' | 'json'): string {
  const { color, typography, spacing } = design.tokens;
  if (format === 'css') {
    return [
      `/* Design "${design.id}" (${design.layout}), written by Keel. */`,
      ':root {',
      `  --color-background: ${color.background};`,
      `  --color-text: ${color.text};`,
      `  --color-primary: ${color.primary};`,
      `  --color-accent: ${color.accent};`,
      `  --font-body: ${typography.font_body};`,
      `  --font-heading: ${typography.font_heading};`,
      `  --font-size-base: ${typography.size_base};`,
      `  --space-unit: ${spacing.unit};`,
      `  --layout-max-width: ${spacing.max_width};`,
      `  --layout: ${design.layout};`,
      '}',
      '',
    ].join('\n');
  }
  const value = {
    id: design.id,
    color,
    font: { body: typography.font_body, heading: typography.font_heading, sizeBase: typography.size_base },
    space: { unit: spacing.unit, maxWidth: spacing.max_width },
    layout: design.layout,
  };
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  return `// Design "${design.id}", written by Keel.\nexport const designTokens = ${JSON.stringify(value, null, 2)} as const;\n`;
}
