import type { ToolDefinition } from '../routing/chat-types';
import type { McpToolset } from '../pure/mcp-tools';
import type { LevelTool } from '../scenarios/types';

const strings = (names: string[]) => Object.fromEntries(names.map((name) => [name, { type: 'string' }]));

/** What a level may call, as the model sees it. Scenario levels opt into tools by name. */
export const TOOL_DEFINITIONS: Record<LevelTool, ToolDefinition> = {
  write_file: {
    type: 'function',
    function: {
      name: 'write_file',
      description: 'Create or overwrite a whole file in the job workspace. Paths are relative, e.g. docs/intro.md.',
      parameters: {
        type: 'object',
        properties: strings(['path', 'content']),
        required: ['path', 'content'],
        additionalProperties: false,
      },
    },
  },
  edit_file: {
    type: 'function',
    function: {
      name: 'edit_file',
      description:
        'Surgical edit of an existing workspace file: replace the exact text `old` (which must occur exactly once) with `new`.',
      parameters: {
        type: 'object',
        properties: strings(['path', 'old', 'new']),
        required: ['path', 'old', 'new'],
        additionalProperties: false,
      },
    },
  },
  read_file: {
    type: 'function',
    function: {
      name: 'read_file',
      description:
        'Read a file of the job workspace, with line numbers. Large files come back in parts: pass start_line and ' +
        'end_line (1-based, inclusive) to read a range, and read on from where the answer says it was cut.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Relative to the workspace, e.g. src/index.ts' },
          start_line: { type: 'integer', minimum: 1 },
          end_line: { type: 'integer', minimum: 1 },
        },
        required: ['path'],
        additionalProperties: false,
      },
    },
  },
  list_files: {
    type: 'function',
    function: {
      name: 'list_files',
      description:
        'List the files of the job workspace with their sizes, optionally only those matching a glob pattern such as ' +
        'src/**/*.ts or *.md. Use it before reading or editing files you have not seen.',
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', description: 'A glob relative to the workspace; all files if absent' },
        },
        additionalProperties: false,
      },
    },
  },
  search_files: {
    type: 'function',
    function: {
      name: 'search_files',
      description:
        'Search the text of the workspace files for a string (or a regular expression in RE2 syntax, with regex: ' +
        'true; no lookaround or backreferences); ' +
        'returns each matching line as path:line: text. Narrow it to some files with a glob pattern.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          regex: { type: 'boolean', description: 'Treat query as a regular expression (default false: plain text)' },
          pattern: { type: 'string', description: 'Only files matching this glob, e.g. **/*.md' },
        },
        required: ['query'],
        additionalProperties: false,
      },
    },
  },
  run_command: {
    type: 'function',
    function: {
      name: 'run_command',
      description:
        "Run one command in the job workspace's sandbox (its own directory, no network, a clean environment, a time " +
        'limit) and get its exit code and the end of its output. Only the commands this level is allowed run; one ' +
        'plain command per call: no ;, &&, |, redirections, variables or wildcards. Use it to run the tests or the ' +
        'build before and after you change files.',
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', description: 'e.g. npm test, or node --test test/parse.test.js' },
        },
        required: ['command'],
        additionalProperties: false,
      },
    },
  },
  ask_user: {
    type: 'function',
    function: {
      name: 'ask_user',
      description: 'Ask the person who submitted the job one short question and wait for the answer.',
      parameters: {
        type: 'object',
        properties: strings(['question']),
        required: ['question'],
        additionalProperties: false,
      },
    },
  },
  request_approval: {
    type: 'function',
    function: {
      name: 'request_approval',
      description:
        'Ask a person to approve an action before it happens; the answer starts with approved or rejected. Name the ' +
        'files the action touches in `paths` and the git branch in `branch`, if any: a project policy may decide ' +
        'from them.',
      parameters: {
        type: 'object',
        properties: {
          ...strings(['action', 'reason', 'branch']),
          paths: { type: 'array', items: { type: 'string' }, maxItems: 50 },
        },
        required: ['action', 'reason'],
        additionalProperties: false,
      },
    },
  },
  kb_search: {
    type: 'function',
    function: {
      name: 'kb_search',
      description:
        "Search the team's knowledge hub (runbooks, decisions, synced Notion, Slack and GitHub notes). Returns the best " +
        'matching passages with their document path and kh-id.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string' }, k: { type: 'integer', minimum: 1, maximum: 10 } },
        required: ['query'],
        additionalProperties: false,
      },
    },
  },
};

export function toolsFor(names: readonly LevelTool[] | undefined): ToolDefinition[] | undefined {
  return names && names.length > 0 ? names.map((name) => TOOL_DEFINITIONS[name]) : undefined;
}

/** The level's own tools and its MCP tools (docs/mcp.md), in that order; undefined when it has none. */
export function withMcpTools(
  own: ToolDefinition[] | undefined,
  mcp: McpToolset | undefined,
): ToolDefinition[] | undefined {
  const offered = (mcp?.tools ?? []).map((tool): ToolDefinition => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
  const all = [...(own ?? []), ...offered];
  return all.length > 0 ? all : undefined;
}
