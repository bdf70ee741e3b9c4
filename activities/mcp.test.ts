import { mcpServerOf, unofferedMcpTool } from '../pure/mcp-tools';
import { McpServerInputSchema } from '../mcp/server-config';
import { offeredName, parametersOf, toolAllowed } from './mcp';

describe('MCP tool names', () => {
  test('mcp__<server>__<tool>, within the vendors rule ^[a-zA-Z0-9_-]{1,64}$', () => {
    expect(offeredName('tickets', 'create_ticket')).toBe('mcp__tickets__create_ticket');
    const dotted = offeredName('docs', 'search.pages');
    expect(dotted).toMatch(/^mcp__docs__search_pages_[0-9a-f]{8}$/);
    const long = offeredName('tickets', 'x'.repeat(100));
    expect(long).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(long.length).toBe(64);
    // Two names that clean up alike stay apart.
    expect(offeredName('docs', 'a.b')).not.toBe(offeredName('docs', 'a/b'));
    expect(mcpServerOf(long)).toBe('tickets');
    expect(mcpServerOf('write_file')).toBeUndefined();
  });

  test('allow (absent: every tool) minus deny, as globs', () => {
    expect(toolAllowed({}, 'anything')).toBe(true);
    expect(toolAllowed({ deny: ['delete_*'] }, 'delete_all')).toBe(false);
    expect(toolAllowed({ allow: ['get_*', 'list_*'] }, 'get_ticket')).toBe(true);
    expect(toolAllowed({ allow: ['get_*'] }, 'create_ticket')).toBe(false);
    expect(toolAllowed({ allow: ['*'], deny: ['get_secret'] }, 'get_secret')).toBe(false);
  });

  test('the $schema marker is left out of the offered parameters', () => {
    expect(parametersOf({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' })).toEqual({
      type: 'object',
    });
  });

  test('a tool the level does not offer is answered with why', () => {
    const toolset = {
      tools: [],
      denied: ['mcp__tickets__delete_all'],
      unavailable: [{ server: 'down', reason: 'fetch failed (ECONNREFUSED)' }],
    };
    expect(unofferedMcpTool(toolset, 'mcp__tickets__delete_all')).toMatch(/refused: .* denies this tool/);
    expect(unofferedMcpTool(toolset, 'mcp__down__x')).toMatch(
      /^mcp__down__x is unavailable: MCP server down did not answer \(fetch failed \(ECONNREFUSED\)\)/,
    );
    expect(unofferedMcpTool(toolset, 'mcp__other__x')).toMatch(/^unknown tool/);
  });
});

describe('an attached server, as an admin sends it', () => {
  test('http with a URL and a secret id; defaults filled in', () => {
    expect(
      McpServerInputSchema.parse({ transport: 'http', url: 'https://mcp.example.com/mcp', secret_id: 'mcp/tickets' }),
    ).toEqual({
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      secret_id: 'mcp/tickets',
      tools: {},
      timeout_ms: 30_000,
    });
  });

  test('refused: credentials in the URL, a non-http URL, a path as secret id, unknown fields', () => {
    const bad = [
      { transport: 'http', url: 'https://u:p@example.com' },
      { transport: 'http', url: 'file:///etc/passwd' },
      { transport: 'http', url: 'https://example.com', secret_id: '../etc/passwd' },
      { transport: 'http', url: 'https://example.com', token: 'abc' },
      { transport: 'stdio' },
      { transport: 'ws', url: 'ws://example.com' },
    ];
    for (const input of bad) expect(McpServerInputSchema.safeParse(input).success).toBe(false);
  });
});
