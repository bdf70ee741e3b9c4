#!/bin/sh
# The test run's Temporal dev server (test/integration/shared-services.ts): the SDK's TestWorkflowEnvironment starts
# this script in place of the CLI. It execs the CLI (the same process, so the SDK still stops it) with stdout and
# stderr appended to .data/test-logs/temporal.log; the SDK would hand the server jest's own, and its start-up banner
# would land in the middle of the run's output.
#
# It is a file of the repository, not one the set-up writes: a script executed just after this process wrote it fails
# with ETXTBSY ("Text file busy") whenever a fork elsewhere holds the write open for that instant.
#
# The CLI is found in the same order as temporal/cli-path.ts: TEMPORAL_CLI_PATH, `temporal` on PATH, .temporal/bin.
#
# Go's garbage collector runs at GOGC=400 (unless GOGC is set) rather than Go's default 100: the server is the suite's
# second-largest CPU user, and it then spends 15-20% less CPU on the same jobs (22-24 s against 27-29 s over
# human-input-race) for a heap a few hundred MB larger, which a test run can afford.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${TEMPORAL_CLI_PATH:-$(command -v temporal || echo "$root/.temporal/bin/temporal")}
log="$root/.data/test-logs/temporal.log"
mkdir -p "$(dirname "$log")"
export GOGC="${GOGC:-400}"
exec "$cli" "$@" >>"$log" 2>&1
