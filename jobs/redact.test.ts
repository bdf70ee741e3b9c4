import { redactPrompt } from './redact';

// Every value below is fake or a vendor's documented example (AWS's AKIAIOSFODNN7EXAMPLE, Stripe's test key,
// jwt.io's sample token, the 4111… test card, the 555 and Ofcom drama-reserved phone ranges).
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const PEM_BODY =
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK';
const RSA_KEY = `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`;
const OPENSSH_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----`;

describe('redactPrompt', () => {
  it.each([
    // private_key
    ['RSA PEM block', `key:\n${RSA_KEY}\nthanks`, 'key:\n[REDACTED:private_key]\nthanks'],
    ['OPENSSH PEM block', `${OPENSSH_KEY}\n`, '[REDACTED:private_key]\n'],
    [
      'plain PEM with escaped newlines in JSON',
      '{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE KEY-----\\n"}',
      '{"private_key": "[REDACTED:private_key]\\n"}',
    ],
    [
      'PEM block cut off before its END line',
      `-----BEGIN EC PRIVATE KEY-----\n${PEM_BODY}\n\nwhat is wrong with it?`,
      '[REDACTED:private_key]\n\nwhat is wrong with it?',
    ],
    [
      'truncated PEM block followed by a whole one',
      `-----BEGIN PRIVATE KEY-----\n${PEM_BODY}\nand then\n${RSA_KEY}`,
      '[REDACTED:private_key]\nand then\n[REDACTED:private_key]',
    ],

    // api_key: well-known formats
    ['OpenAI project key', 'use sk-proj-4f9XkQ2mZ7rT1vB8nL3pW6yH0cJ5dA2e now', 'use [REDACTED:api_key] now'],
    ['OpenAI legacy key', 'sk-FAKEa1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8s9t0', '[REDACTED:api_key]'],
    ['Anthropic key', 'key sk-ant-api03-Xy7Qw3Rt5Uv1Zz9Aa0Bb2Cc4Dd6Ee8Ff', 'key [REDACTED:api_key]'],
    ['AWS access key id', 'aws id AKIAIOSFODNN7EXAMPLE here', 'aws id [REDACTED:api_key] here'],
    ['AWS temporary key id', 'ASIAY34FZKBOKMUTVV7A', '[REDACTED:api_key]'],
    ['GitHub classic token', 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', '[REDACTED:api_key]'],
    [
      'GitHub fine-grained token',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789',
      '[REDACTED:api_key]',
    ],
    ['Slack bot token', 'xoxb-000000000000-0000000000000-FAKEfakeFAKEfake', '[REDACTED:api_key]'],
    ['Google API key', 'AIzaSyD-FAKE_0123456789abcdefghijklmnop.', '[REDACTED:api_key].'],
    ['Stripe test key', 'stripe sk_test_4eC39HqLyjWDarjtT1zdp7dc', 'stripe [REDACTED:api_key]'],
    ['Stripe restricted key', 'rk_live_FAKE0123456789abcdef', '[REDACTED:api_key]'],

    // api_key: generic assignments keep the name
    ['env assignment', 'DB_PASSWORD=hunter2 npm start', 'DB_PASSWORD=[REDACTED:api_key] npm start'],
    ['query string', 'GET /cb?token=abc123&state=xyz', 'GET /cb?token=[REDACTED:api_key]&state=xyz'],
    ['YAML', 'apikey: 9f8e7d6c5b4a', 'apikey: [REDACTED:api_key]'],
    ['JSON', '{"password": "correct horse"}', '{"password": "[REDACTED:api_key]"}'],
    ['quoted code', "const clientSecret = 'shh';", "const clientSecret = '[REDACTED:api_key]';"],
    ['annotated code', 'password: str = "hunter2"', 'password: str = "[REDACTED:api_key]"'],
    ['HTTP header', 'X-Api-Key: 3f9c2a7b1d', 'X-Api-Key: [REDACTED:api_key]'],
    ['known key in an assignment', 'OPENAI_API_KEY=sk-proj-4f9XkQ2mZ7rT1vB8nL3pW', 'OPENAI_API_KEY=[REDACTED:api_key]'],
    [
      'AWS secret access key',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'aws_secret_access_key = [REDACTED:api_key]',
    ],

    // bearer_token
    [
      'Authorization header',
      'Authorization: Bearer 2f9a7c1e5b3d8f0a4c6e',
      'Authorization: Bearer [REDACTED:bearer_token]',
    ],
    ['Bearer with a JWT', `-H "Authorization: Bearer ${JWT}"`, '-H "Authorization: Bearer [REDACTED:bearer_token]"'],
    ['bare JWT', `decode ${JWT} please`, 'decode [REDACTED:bearer_token] please'],
    ['JWT assigned to token', `id_token=${JWT}`, 'id_token=[REDACTED:bearer_token]'],
    ['Bearer with a known key', 'Bearer sk-proj-4f9XkQ2mZ7rT1vB8nL3pW', 'Bearer [REDACTED:api_key]'],

    // url_password
    [
      'database URL',
      'postgres://keel:s3cr3t-pw@db.internal:5432/keel',
      'postgres://keel:[REDACTED:url_password]@db.internal:5432/keel',
    ],
    ['password with @', 'redis://:p@ss:w0rd@cache:6379', 'redis://:[REDACTED:url_password]@cache:6379'],
    [
      'known token as the password',
      'https://x-access-token:ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8@github.com/org/repo',
      'https://x-access-token:[REDACTED:api_key]@github.com/org/repo',
    ],

    // email
    ['email', 'mail alice.smith+keel@example.co.uk today', 'mail [REDACTED:email] today'],
    ['mailto', '<a href="mailto:bob@example.com">', '<a href="mailto:[REDACTED:email]">'],

    // card_number
    ['spaced card', 'card 4111 1111 1111 1111 exp 12/29', 'card [REDACTED:card_number] exp 12/29'],
    ['dashed card', '5555-5555-5555-4444', '[REDACTED:card_number]'],
    ['contiguous card', 'pay with 4012888888881881.', 'pay with [REDACTED:card_number].'],
    ['Amex grouping', 'amex 3782 822463 10005', 'amex [REDACTED:card_number]'],

    // phone
    ['UK international', 'call +44 20 7946 0958 after 2024', 'call [REDACTED:phone] after 2024'],
    ['US with parentheses', 'office (555) 123-4567.', 'office [REDACTED:phone].'],
    ['US dashed', 'cell: 555-123-4567', 'cell: [REDACTED:phone]'],
    ['US international', 'text +1 555 123 4567!', 'text [REDACTED:phone]!'],
    ['US toll-free with leading 1', '1-800-555-0199', '[REDACTED:phone]'],
  ])('redacts %s', (_name, input, expected) => {
    expect(redactPrompt(input).text).toBe(expected);
  });

  it.each([
    ['prose', 'Summarise the secret history of the bearer bonds market in 300 words.'],
    ['prose about tokens', 'Use a Bearer token; the password: see the vault. Each token: about 4 chars.'],
    ['code reading a secret', 'const token = getToken();\npassword = os.environ["DB_PASSWORD"]\nf(password=password)'],
    ['token counts', 'max_tokens: 1024, total_tokens=2048, token_limit: 4096'],
    ['variable references', 'API_KEY=$OPENAI_API_KEY TOKEN=%GH_TOKEN% secret: "" password: null'],
    ['PWD is a directory', 'PWD=/home/me2'],
    ['plain numbers', 'We shipped 1234567 units; order 20240115 and ticket 987654.'],
    ['dates and times', 'Due 2024-01-15T10:30:00+05:30, or 15.01.2024 at 10:30:45, UTC+10:00.'],
    ['versions and addresses', 'Node v20.19.0, semver 1.2.3, host 192.168.100.254, build 2024.1.3'],
    ['Luhn-failing 16-digit number', 'order 4111 1111 1111 1112 and 4111111111111112'],
    ['millisecond timestamp', 'created at 1700000000000'],
    ['URL without credentials', 'see https://example.com:8443/path?q=1#top and http://localhost:3000/'],
    ['URL user without password', 'clone ssh://git@github.com/org/repo.git'],
    ['scp-style git remote', 'git clone git@github.com:org/repo.git'],
    ['npm and decorators', 'install @types/node@20.19.0 and use @Injectable()'],
    ['short sk- words', 'sk-learn and risk-management-framework'],
    ['space-separated numbers', 'scores 555 123 4567'],
    ['arithmetic', 'x = 3+4*5, y = 10-20-30'],
  ])('keeps %s', (_name, input) => {
    expect(redactPrompt(input)).toEqual({ text: input, redactions: [] });
  });

  it('counts each kind, in table order', () => {
    const input = [
      RSA_KEY,
      'AKIAIOSFODNN7EXAMPLE and password=hunter2',
      `Bearer 2f9a7c1e5b3d8f0a4c6e and ${JWT}`,
      'mysql://root:toor@db/app',
      'alice@example.com, bob@example.com, carol@example.org',
      '4111 1111 1111 1111 but not 4111 1111 1111 1112',
      '+44 20 7946 0958 or (555) 123-4567',
    ].join('\n');

    expect(redactPrompt(input).redactions).toEqual([
      { kind: 'private_key', count: 1 },
      { kind: 'api_key', count: 2 },
      { kind: 'bearer_token', count: 2 },
      { kind: 'url_password', count: 1 },
      { kind: 'email', count: 3 },
      { kind: 'card_number', count: 1 },
      { kind: 'phone', count: 2 },
    ]);
  });

  it('leaves already-redacted text unchanged', () => {
    const input = [
      OPENSSH_KEY,
      'token=abc123 "password": "x" sk-ant-api03-Xy7Qw3Rt5Uv1Zz9Aa0Bb2Cc4Dd6Ee8Ff',
      `Authorization: Bearer ${JWT}`,
      'https://me:pw1@example.com/ me@example.com',
      'card 4111-1111-1111-1111 phone +1 555 123 4567 or 555.123.4567',
    ].join('\n');
    const once = redactPrompt(input);

    expect(once.text).not.toBe(input);
    expect(redactPrompt(once.text)).toEqual({ text: once.text, redactions: [] });
  });
});
