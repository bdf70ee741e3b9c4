/**
 * A tool call's `arguments` as an object. Models sometimes emit broken JSON or a non-object; both read as `{}`, so
 * a level answers "needs {...}" and a vendor adapter sends an empty input rather than failing the call.
 */
export function parseToolArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
