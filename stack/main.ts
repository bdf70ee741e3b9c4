// `npm start`: the whole of Keel in one process tree, on embedded defaults for whatever is not configured:
// the Temporal dev server (+ UI), PostgreSQL (PGlite), the in-process queue store and the offline demo model.
import { runMain } from './entry-point';
import { startStack } from './start';

runMain('keel', () => startStack(process.env, (line) => process.stdout.write(`${line}\n`)));
