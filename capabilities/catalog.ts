import { z } from 'zod';

/**
 * The built-in capability catalog: the skills Keel knows how to acquire. An org's registry (db/capabilities.ts)
 * copies an entry on first use; a custom capability planned with its own requirements gets the default units.
 */

export const CAPABILITY_NAME = z
  .string()
  .regex(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, 'a capability name such as static-site')
  .max(64);

export const UNIT_KINDS = ['scenario', 'template', 'tool', 'secret', 'verify'] as const;
export type UnitKind = (typeof UNIT_KINDS)[number];

export const requirementsSchema = z.strictObject({
  /** Model features the skill's levels need (routing requirement names such as code_generation). */
  model_features: z.array(z.string().min(1).max(64)).max(10).default([]),
  /** Tools its levels call. */
  tools: z.array(z.string().min(1).max(64)).max(10).default([]),
  /** Secrets (ids in the secrets store, upper-case by convention) the skill needs at run time; a person provides them. */
  secrets: z
    .array(z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'a secret id in upper case, such as VERCEL_TOKEN'))
    .max(10)
    .default([]),
  /** Templates it relies on, by name (recorded here only; templates themselves belong to product builds). */
  templates: z.array(z.string().min(1).max(64)).max(10).default([]),
});
export type CapabilityRequirements = z.infer<typeof requirementsSchema>;

export const unitSchema = z.object({
  key: z.string(),
  kind: z.enum(UNIT_KINDS),
  title: z.string(),
  /** The file the unit writes into the roadmap job's workspace; its presence is part of the unit's verification. */
  artifact: z.string(),
});
export type AcquisitionUnit = z.infer<typeof unitSchema>;

export interface CapabilityDefinition {
  name: string;
  title: string;
  description: string;
  requirements: CapabilityRequirements;
  /** The checks that prove it works, in words; each unit's verifier and artifact check enforce them. */
  verification: string[];
}

const none: CapabilityRequirements = { model_features: [], tools: [], secrets: [], templates: [] };

export const CAPABILITY_CATALOG: readonly CapabilityDefinition[] = [
  {
    name: 'typescript-library',
    title: 'TypeScript library',
    description: 'Write a small typed npm library with its README and tests.',
    requirements: { ...none, model_features: ['code_generation'], tools: ['write_file', 'edit_file'] },
    verification: ['the library scenario writes src/index.ts and a README on an example request'],
  },
  {
    name: 'static-site',
    title: 'Static site',
    description: 'Build a static marketing site from a brief.',
    requirements: {
      ...none,
      model_features: ['code_generation'],
      tools: ['write_file'],
      templates: ['static-site-basic'],
    },
    verification: ['the site scenario writes index.html from the template on an example brief'],
  },
  {
    name: 'vercel-deploy',
    title: 'Vercel deploy',
    description: 'Deploy a built site to Vercel.',
    requirements: { ...none, tools: ['deploy'], secrets: ['VERCEL_TOKEN'] },
    verification: ['a deploy of the example site answers with a URL'],
  },
  {
    name: 'slack-digest',
    title: 'Slack digest',
    description: "Summarise a channel's week into a digest post.",
    requirements: { ...none, model_features: ['long_context'], tools: ['kb_search'] },
    verification: ['the digest scenario summarises an example week from the knowledge hub'],
  },
  {
    name: 'docs-site',
    title: 'Documentation site',
    description: 'Turn a repository into a navigable documentation site.',
    requirements: { ...none, tools: ['write_file', 'kb_search'] },
    verification: ['the docs scenario writes an index page linking every section on an example repository'],
  },
];

export function catalogEntry(name: string): CapabilityDefinition | undefined {
  return CAPABILITY_CATALOG.find((entry) => entry.name === name);
}

/**
 * The roadmap of a capability: one unit per piece of work, in order. Every capability gets its scenario and prompts
 * and a final verification on examples; templates, tools and secrets it requires add a unit each.
 */
export function unitsFor(def: Pick<CapabilityDefinition, 'name' | 'requirements'>): AcquisitionUnit[] {
  const dir = `skills/${def.name}`;
  const units: AcquisitionUnit[] = [
    {
      key: 'scenario',
      kind: 'scenario',
      title: `write the ${def.name} scenario and its prompts`,
      artifact: `${dir}/scenario.md`,
    },
  ];
  for (const template of def.requirements.templates) {
    units.push({
      key: `template-${template}`,
      kind: 'template',
      title: `add the ${template} template reference`,
      artifact: `${dir}/template-${template}.md`,
    });
  }
  for (const tool of def.requirements.tools) {
    units.push({
      key: `tool-${tool}`,
      kind: 'tool',
      title: `add the ${tool} tool`,
      artifact: `${dir}/tool-${tool}.md`,
    });
  }
  for (const secret of def.requirements.secrets) {
    units.push({
      key: `secret-${secret}`,
      kind: 'secret',
      title: `obtain the ${secret} secret`,
      artifact: `${dir}/secret-${secret.toLowerCase()}.md`,
    });
  }
  units.push({ key: 'verify', kind: 'verify', title: 'verify on examples', artifact: `${dir}/verification.md` });
  return units;
}
