const rules = new Intl.PluralRules('en');

/** `1 workflow`, `2 workflows`, `0 workflows`: the count with its noun in the form English wants for it. */
export function countOf(count: number, one: string, other = `${one}s`): string {
  return `${count.toLocaleString('en')} ${rules.select(count) === 'one' ? one : other}`;
}
