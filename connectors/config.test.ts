import { connectorsEnv, scheduleSettings } from './config';
import { githubEnv } from './github/config';
import { redact } from './github/git';
import { cloneUrl } from './github';

describe('connector configuration', () => {
  it('defaults every connector to disabled with the spec schedules', () => {
    const env = connectorsEnv.parse({});
    expect(scheduleSettings(env, 'notion')).toEqual({
      enabled: false,
      cron: '0 */2 * * *',
      authSecretId: undefined,
      org: null,
    });
    expect(scheduleSettings(env, 'slack').cron).toBe('*/30 * * * *');
    expect(scheduleSettings(env, 'github').cron).toBe('0 */6 * * *');
  });

  it('refuses a bad cron, a bad flag and a secret id that could leave the secrets directory', () => {
    const result = connectorsEnv.safeParse({
      CONNECTOR_GITHUB_SCHEDULE: '61 * * * *',
      CONNECTOR_SLACK_ENABLED: 'maybe',
      CONNECTOR_GITHUB_AUTH_SECRET_ID: '../etc/passwd',
    });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path[0]).sort()).toEqual([
      'CONNECTOR_GITHUB_AUTH_SECRET_ID',
      'CONNECTOR_GITHUB_SCHEDULE',
      'CONNECTOR_SLACK_ENABLED',
    ]);
  });

  it('parses repo policies with defaults and refuses a policy without sensitivity', () => {
    const env = githubEnv.parse({
      CONNECTOR_GITHUB_REPOS: JSON.stringify([{ owner: 'acme', repo: 'widgets', sensitivity: 'partner' }]),
    });
    expect(env.CONNECTOR_GITHUB_REPOS).toEqual([
      {
        owner: 'acme',
        repo: 'widgets',
        branch: 'main',
        include_globs: ['**'],
        exclude_globs: [],
        sensitivity: 'partner',
        tags: [],
      },
    ]);
    expect(env.CONNECTOR_GITHUB_MAX_FILE_BYTES).toBe(256 * 1024);
    expect(env.GITHUB_GIT_BASE_URL).toBe('https://github.com');
    expect(githubEnv.safeParse({ CONNECTOR_GITHUB_REPOS: '[{"owner":"a","repo":"b"}]' }).success).toBe(false);
    expect(githubEnv.safeParse({ CONNECTOR_GITHUB_REPOS: 'not json' }).success).toBe(false);
  });

  it('puts the token in an https clone address only, and redacts it', () => {
    const policy = githubEnv.parse({
      CONNECTOR_GITHUB_REPOS: '[{"owner":"acme","repo":"widgets","sensitivity":"internal"}]',
    }).CONNECTOR_GITHUB_REPOS[0]!;
    expect(cloneUrl('https://github.com', policy, 'ghp_s3cret')).toBe(
      'https://x-access-token:ghp_s3cret@github.com/acme/widgets.git',
    );
    expect(cloneUrl('file:///srv/git', policy, 'ghp_s3cret')).toBe('file:///srv/git/acme/widgets.git');
    expect(redact('fatal: https://x-access-token:ghp_s3cret@github.com/x', ['ghp_s3cret'])).toBe(
      'fatal: https://x-access-token:***@github.com/x',
    );
  });
});
