/**
 * The team lead's first decision: is this request work for the LLM hierarchy, or a non-LLM intent that
 * code answers directly? Pure and deterministic (workflow code).
 *   /command [args]   a command (see COMMANDS)
 *   rule: <text>      a team rule to keep
 *   fact: <text>      a fact to keep
 *   anything else     LLM work for the scenario
 */
export type Intent =
  { kind: 'llm' } | { kind: 'command'; name: string; args: string } | { kind: 'rule' | 'fact'; text: string };

export const COMMANDS: Record<string, string> = {
  help: 'list what Keel answers without an LLM, and the demo directives',
  echo: 'repeat the text after the command',
};

export function classifyIntent(prompt: string): Intent {
  const text = prompt.trim();
  const command = /^\/([a-z][a-z0-9-]*)(?:\s+([\s\S]*))?$/i.exec(text);
  if (command) return { kind: 'command', name: command[1]!.toLowerCase(), args: (command[2] ?? '').trim() };
  const keep = /^(rule|fact)\s*:\s*([\s\S]+)$/i.exec(text);
  if (keep) return { kind: keep[1]!.toLowerCase() as 'rule' | 'fact', text: keep[2]!.trim() };
  return { kind: 'llm' };
}

/** The answer to a command, composed in code. */
export function answerCommand(name: string, args: string): string {
  if (name === 'echo') return args;
  if (name === 'help') {
    const commands = Object.entries(COMMANDS).map(([command, what]) => `/${command} — ${what}`);
    return [
      'Keel answers these without an LLM:',
      ...commands,
      'rule: <text> — keep a team rule (written to rules.md in the job files)',
      'fact: <text> — keep a fact (written to facts.md in the job files)',
      'Anything else runs the agent hierarchy. Demo directives: #ask, #approve, #verify-fail=N, #slow.',
    ].join('\n');
  }
  return `unknown command /${name}; try /help`;
}

/** Where a kept rule or fact is written, and its content. */
export function keptFile(intent: { kind: 'rule' | 'fact'; text: string }): { path: string; content: string } {
  const title = intent.kind === 'rule' ? 'Rules' : 'Facts';
  return { path: `${intent.kind}s.md`, content: `# ${title}\n\n- ${intent.text.replace(/\s+/g, ' ')}\n` };
}
