/**
 * `#build-fail=N` for every shipped template: the file the demo executor writes to break the template's real build
 * command, and the repaired content it writes once N builds failed. The template is read from the product prelude's
 * `Template: <id> (` line in the level's context; a context without one (or an unknown template) breaks the way the
 * static page does, through the feature file's link to a missing page, which is all a non-product job can show.
 */

/** A file whose broken content fails the template's build command and whose repaired content passes it. */
export interface BuildBreakFile {
  path: string;
  broken: string;
  repaired: string;
}

// Each broken file fails the build step itself, not only the tests: tsc refuses the type error, and the service's
// build (`node scripts/check.mjs`) runs `node --check` on every src/*.mjs, which refuses the syntax error.
const BREAK_FILES: Readonly<Record<string, BuildBreakFile>> = {
  'ts-library': {
    path: 'src/build-check.ts',
    broken: "// Written broken on purpose by #build-fail.\nexport const buildCheck: number = 'not a number';\n",
    repaired: '// Written broken on purpose by #build-fail, then repaired.\nexport const buildCheck: number = 1;\n',
  },
  'node-service': {
    path: 'src/build-check.mjs',
    broken: '// Written broken on purpose by #build-fail.\nexport const buildCheck = ;\n',
    repaired: '// Written broken on purpose by #build-fail, then repaired.\nexport const buildCheck = 1;\n',
  },
};

const TEMPLATE_LINE = /^Template: ([a-z][a-z0-9-]*) \(/m;

/** The template the product prelude scaffolded, from its `Template: <id> (` line; undefined outside a product build. */
export function templateOf(context: string): string | undefined {
  return TEMPLATE_LINE.exec(context)?.[1];
}

/** The template's own break file, or undefined when the feature file's broken link is what breaks its build. */
export function buildBreakFileFor(templateId: string | undefined): BuildBreakFile | undefined {
  return templateId === undefined ? undefined : BREAK_FILES[templateId];
}
