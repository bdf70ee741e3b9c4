/**
 * An answer a person gave to a yes/no question: it starts with yes, y, ok, okay, sure, proceed, confirm(ed), go ahead
 * or approve(d), in any case. Pure: the scope gate's workflow code and its tests share it.
 */
export function isYes(answer: string): boolean {
  return /^\s*(?:y|yes|ok|okay|sure|proceed|confirm(?:ed)?|go ahead|approve(?:d)?)\b/i.test(answer);
}
