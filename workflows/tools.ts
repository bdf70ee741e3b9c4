import type { ToolDefinition } from '../routing/chat-types';
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
      description: 'Ask a person to approve an action before it happens; the answer starts with approved or rejected.',
      parameters: {
        type: 'object',
        properties: strings(['action', 'reason']),
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
