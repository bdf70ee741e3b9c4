/**
 * Fills a level's prompt template. Workflow code imports this file, and Temporal replays workflow code, so it must
 * stay pure: no Node imports, no I/O, no clock. It names the level by the one field it reads (a scenario level has
 * it), so pure/ depends on no domain folder, not even for a type.
 */

/** What one earlier level produced; the same shape as `LevelInput.context` entries. */
export interface EarlierOutput {
  role: string;
  output: string;
}

export interface RenderInput {
  /** The user's request (already redacted by the API). */
  request: string;
  /** Earlier levels' outputs, oldest first. */
  context: readonly EarlierOutput[];
}

/** `{{name}}`, with optional spaces inside the braces (`{{ request }}`) as template authors often write. */
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/**
 * The level's brief with `{{request}}` and `{{context}}` filled in. Context is the earlier outputs as
 * `## Output of <role>\n<output>` blocks separated by a blank line, or an empty string when there are none.
 *
 * Any other `{{…}}` is left exactly as written: briefs may quote template syntax (e.g. a task about Handlebars), and
 * a scenario written for a newer runtime's placeholders should degrade to visible text rather than vanish. The
 * template is scanned once, so a request or an output that itself contains `{{context}}` is never expanded.
 */
export function renderLevelPrompt(level: { prompt: string }, input: RenderInput): string {
  // A Map, not an object literal, so `{{constructor}}` cannot reach a prototype property.
  const values = new Map([
    ['request', input.request],
    ['context', renderContext(input.context)],
  ]);
  return level.prompt.replace(PLACEHOLDER, (whole: string, name: string) => values.get(name) ?? whole);
}

/** The `{{context}}` text: each earlier output under `## Output of <role>`, blocks separated by a blank line. */
export function renderContext(context: readonly EarlierOutput[]): string {
  return context.map((earlier) => `## Output of ${earlier.role}\n${earlier.output}`).join('\n\n');
}
