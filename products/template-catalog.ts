/**
 * The template catalog: project skeletons shipped as data (products/templates/<id>.yaml), each with its files, the
 * build and test commands the sandbox runs, where a design's tokens go, and (for static sites) the folder a deploy
 * publishes. Loaded and validated at use; a broken template file is an error naming the file and field, never a
 * silently smaller catalog.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { projectRoot } from '../config/paths';

const relativePath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), 'must be a relative path inside the workspace');

export const templateSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, 'must be a lowercase slug'),
  name: z.string().min(1),
  description: z.string().min(1),
  /** Words of a request that point at this template; selection scores by them. */
  keywords: z.array(z.string().min(1)).min(1),
  /** Shell commands run in the workspace by the build sandbox, build first. */
  build: z.string().min(1),
  test: z.string().min(1),
  /** The folder a deploy publishes (static sites only); absent: the template is not deployable as a static site. */
  publish: relativePath.optional(),
  /** Where the design's tokens are written, and in which form. */
  design: z.strictObject({ path: relativePath, format: z.enum(['css', 'ts', 'json']) }),
  /** What the executor is told about where its feature goes. */
  feature: z.string().min(1),
  /** Path → content. `{{project_name}}` and `{{package_name}}` are filled in at scaffold time. */
  files: z.record(relativePath, z.string()),
});

export type Template = z.infer<typeof templateSchema>;
export type TemplateSummary = Omit<Template, 'files'> & { file_paths: string[] };

export class TemplateCatalogError extends Error {
  override name = 'TemplateCatalogError';
}

export function defaultTemplatesDir(): string {
  return path.join(projectRoot(), 'products', 'templates');
}

/** Every template in `dir`, sorted by id. Throws TemplateCatalogError naming the file and field of any problem. */
export async function loadTemplates(dir: string = defaultTemplatesDir()): Promise<Template[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.yaml')).sort();
  const templates: Template[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const parsed = templateSchema.safeParse(parse(await readFile(file, 'utf8')));
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`);
      throw new TemplateCatalogError(`${file}: invalid template\n  ${problems.join('\n  ')}`);
    }
    if (`${parsed.data.id}.yaml` !== name) {
      throw new TemplateCatalogError(`${file}: id ${parsed.data.id} must match the file name`);
    }
    templates.push(parsed.data);
  }
  return templates;
}

export function summarize(template: Template): TemplateSummary {
  const { files, ...rest } = template;
  return { ...rest, file_paths: Object.keys(files).sort() };
}

/** The files of a template for one project, placeholders filled. */
export function scaffoldFiles(template: Template, projectName: string): Array<{ path: string; content: string }> {
  const packageName =
    projectName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'app';
  return Object.entries(template.files)
    .map(([file, content]) => ({
      path: file,
      content: content.replaceAll('{{project_name}}', projectName).replaceAll('{{package_name}}', packageName),
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
