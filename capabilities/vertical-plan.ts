import { CAPABILITY_CATALOG, catalogEntry } from './catalog';

export interface KnowledgeSource {
  kh_id: string;
  title: string;
  path: string;
  snippet: string;
}

export interface VerticalPlan {
  capabilities: Array<{ name: string; why: string }>;
  /** Templates and designs are named here only; building them belongs to product builds. */
  templates: string[];
  designs: string[];
  sources: Array<{ kh_id: string; title: string; path: string }>;
}

/** Words in the vertical's brief or its knowledge that call for a capability beyond the baseline. */
const SIGNALS: Array<{ capability: string; words: RegExp }> = [
  { capability: 'vercel-deploy', words: /\b(?:deploy|deployment|hosting|vercel|launch)\b/i },
  { capability: 'slack-digest', words: /\b(?:slack|digest|weekly summary|channel)\b/i },
  { capability: 'typescript-library', words: /\b(?:library|sdk|package|api client)\b/i },
  { capability: 'docs-site', words: /\b(?:docs|documentation|handbook|manual)\b/i },
];

export function slugOf(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'vertical'
  );
}

/**
 * What a vertical needs, from its brief and what the knowledge hub holds about it: every vertical gets a site (the
 * baseline product Keel builds), plus each capability whose signal words appear in the brief or in a hub document
 * found for it (the document is named as the reason).
 */
export function proposeVerticalPlan(input: {
  name: string;
  description?: string;
  sources: KnowledgeSource[];
}): VerticalPlan {
  const picked = new Map<string, string>([['static-site', 'every vertical gets a site to present its offer']]);
  const brief = `${input.name} ${input.description ?? ''}`;
  for (const signal of SIGNALS) {
    if (picked.has(signal.capability)) continue;
    if (signal.words.test(brief)) {
      picked.set(signal.capability, 'named in the vertical brief');
      continue;
    }
    const source = input.sources.find((s) => signal.words.test(`${s.title} ${s.snippet}`));
    if (source) picked.set(signal.capability, `the knowledge hub mentions it (${source.path})`);
  }
  const order = CAPABILITY_CATALOG.map((entry) => entry.name);
  const capabilities = [...picked.entries()]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([name, why]) => ({ name, why }));
  const templates = [...new Set(capabilities.flatMap((c) => catalogEntry(c.name)?.requirements.templates ?? []))];
  const slug = slugOf(input.name);
  return {
    capabilities,
    templates,
    designs: [`${slug}-landing`, `${slug}-brand`],
    sources: input.sources.map((s) => ({ kh_id: s.kh_id, title: s.title, path: s.path })),
  };
}

/** How a person's answer to the plan question reads: a yes confirms, a no rejects; anything else is a note on a yes. */
export function readConfirmation(answer: string): { confirmed: boolean; note?: string } {
  const text = answer.trim();
  if (/^(?:no|reject|rejected|cancel|stop)\b/i.test(text)) return { confirmed: false, note: text };
  if (/^(?:yes|y|ok|okay|confirm|confirmed|approve|approved|go)\b[.!]?$/i.test(text)) return { confirmed: true };
  return { confirmed: true, note: text };
}
