import { setLogLevel } from '../telemetry/logger';

// Jest runs this before each test file: the job log stays quiet, as jest's `silent` keeps console output quiet, so a
// passing run prints only its summary. KEEL_TEST_LOG_LEVEL=info shows the lines while debugging a test.
setLogLevel((process.env.KEEL_TEST_LOG_LEVEL as 'info' | undefined) ?? 'silent');
