// `keel kb index|reembed` (the knowledge index, straight on the database) and `keel kb-mcp` (the read-only MCP server).
import { parseArgs } from 'node:util';
import { indexAll, indexPaths, type IndexResult } from '../kb/indexer';
import { runKbMcpOverStdio } from '../kb/mcp/server';
import { reembedIndex } from '../kb/reembed';
import { readDevToken, readStackState } from '../stack/state-file';
import type { CliEnv, KbCommandConfig } from './config';
import { CommandFailed } from './command-failed';
import { withHub, type OpenDatabase } from './with-hub';
import { KB_USAGE } from './command-usage';

export async function runKbCommand(
  config: KbCommandConfig,
  args: string[],
  openDatabase: OpenDatabase,
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'index' && sub !== 'reembed')
    throw new CommandFailed(`unknown command: kb ${args.join(' ')}\n\n${KB_USAGE}`);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { all: { type: 'boolean' } },
  });
  if (sub === 'index' && !values.all && positionals.length === 0) {
    throw new CommandFailed(`keel kb index needs --all or hub paths\n\n${KB_USAGE}`);
  }
  return withHub(config, openDatabase, async ({ hub, warning }) => {
    if (hub.unavailable) throw new CommandFailed(hub.unavailable);
    if (sub === 'reembed') {
      const done = await reembedIndex(hub, (n, total) => process.stderr.write(`\rre-embedded ${n}/${total} chunks`));
      if (done.reembedded > 0) process.stderr.write('\n');
      console.log(`re-embedded ${done.reembedded} chunks; the index now holds vectors of ${done.description}`);
      return 0;
    }
    if (warning) throw new CommandFailed(warning);
    const results = values.all ? await indexAll(hub) : await indexPaths(hub, positionals);
    for (const result of results) console.log(describe(result));
    return results.some((r) => r.status === 'invalid') ? 1 : 0;
  });
}

function describe(result: IndexResult): string {
  switch (result.status) {
    case 'indexed':
      return `indexed    ${result.path} (${result.kh_id}, ${result.chunks} chunks, ${result.embedded} embedded)`;
    case 'invalid':
      return `invalid    ${result.path}: ${result.error}`;
    case 'absent':
      return `absent     ${result.path}`;
    default:
      return `${result.status.padEnd(10)} ${result.path} (${result.kh_id})`;
  }
}

/** Serves until the MCP client closes stdin. Writes nothing to stdout but the protocol. */
export async function runKbMcpCommand(env: CliEnv): Promise<number> {
  const baseUrl = env.KEEL_API_URL ?? readStackState(env.DATA_DIR)?.api_url ?? 'http://127.0.0.1:3000';
  const token = env.KEEL_TOKEN ?? readDevToken(env.DATA_DIR);
  if (!token) throw new CommandFailed('keel kb-mcp: no API token: set KEEL_TOKEN (or run `npm start` for a dev token)');
  await runKbMcpOverStdio({ baseUrl, token });
  return 0;
}
