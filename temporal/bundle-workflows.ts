// Writes the prebuilt workflow bundle production workers load (`npm run build` runs this after tsc).
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflows, defaultWorkflowBundlePath } from './workflow-code';

async function main(): Promise<void> {
  const out = path.resolve(process.argv[2] ?? defaultWorkflowBundlePath());
  const code = await bundleWorkflows();
  fs.writeFileSync(out, code);
  console.error(`[setup] workflow bundle written to ${path.relative(process.cwd(), out)} (${code.length} bytes)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
