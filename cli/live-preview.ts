import type { LiveDelta } from '../events/live-deltas';

/** How many lines of a call's output `keel job` shows under its spinner while the call streams. */
const PREVIEW_LINES = 3;

/**
 * What `keel job` shows of the model output streaming now: the tail of the newest call's text, or of the file a tool
 * call is writing (its JSON arguments, unescaped enough to read), or the last line of its reasoning. A `discard`
 * drops an attempt's output and an `end` the call's: the durable lines that follow carry the result.
 */
export class LivePreview {
  private readonly calls = new Map<string, { attempt: string; role: string; parts: Map<string, string> }>();
  private newest: string | undefined;

  apply(delta: LiveDelta): void {
    if (delta.kind === 'end') {
      this.calls.delete(delta.call_id);
      if (this.newest === delta.call_id) this.newest = [...this.calls.keys()].at(-1);
      return;
    }
    let call = this.calls.get(delta.call_id);
    if (delta.kind === 'discard') {
      if (call?.attempt === delta.attempt) call.parts.clear();
      return;
    }
    if (!call || call.attempt !== delta.attempt) {
      call = { attempt: delta.attempt, role: roleOf(delta.level_id), parts: new Map() };
      this.calls.set(delta.call_id, call);
    }
    this.newest = delta.call_id;
    const key = delta.kind === 'tool_arguments' ? `tool:${delta.tool_call_index ?? 0}` : delta.kind;
    if (delta.tool_name) call.parts.set(`${key}:name`, delta.tool_name);
    const have = call.parts.get(key) ?? '';
    // Offsets say where a piece goes: what is already there is not added twice (a replay after a reconnect).
    if (delta.offset + delta.text.length <= have.length) return;
    call.parts.set(key, have + delta.text.slice(Math.max(0, have.length - delta.offset)));
  }

  /** The lines to draw, each at most `width` columns; none when nothing streams. */
  lines(width: number): string[] {
    const call = this.newest ? this.calls.get(this.newest) : undefined;
    if (!call) return [];
    const tools = [...call.parts.keys()].filter((k) => /^tool:\d+$/.test(k) || /^tool:\d+:name$/.test(k));
    const tool = tools.at(-1)?.replace(/:name$/, '');
    let heading: string;
    let body: string;
    if (tool) {
      const args = call.parts.get(tool) ?? '';
      const path = /"path"\s*:\s*"([^"]*)"/.exec(args)?.[1];
      heading = `${call.role} ${call.parts.get(`${tool}:name`) ?? 'tool call'}${path ? ` ${path}` : ''}`;
      const content = /"content"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(args)?.[1];
      body = unescapeJson(content ?? args);
    } else if (call.parts.get('text')) {
      heading = `${call.role} writing`;
      body = call.parts.get('text')!;
    } else if (call.parts.get('reasoning')) {
      heading = `${call.role} thinking`;
      body = call.parts.get('reasoning')!;
    } else return [];
    const tail = body
      .split('\n')
      .filter((line) => line.trim() !== '')
      .slice(-PREVIEW_LINES);
    return [heading, ...tail.map((line) => `  │ ${line}`)].map((line) => clip(line, width));
  }
}

function roleOf(levelId: string): string {
  return levelId.split('/')[1] ?? levelId;
}

/** The escapes of a JSON string that is still being written (so not parseable yet), read as what they stand for. */
function unescapeJson(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escape: string) => {
    if (escape.startsWith('u') && escape.length === 5) return String.fromCharCode(parseInt(escape.slice(1), 16));
    return ({ n: '\n', t: '  ', r: '', b: '', f: '' } as Record<string, string>)[escape] ?? escape;
  });
}

function clip(line: string, width: number): string {
  const chars = Array.from(line.replace(/\t/g, '  '));
  return chars.length <= width ? chars.join('') : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}
