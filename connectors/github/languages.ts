/** Fence language tags by file extension (lower case, without the dot). */
const BY_EXTENSION: Record<string, string> = {
  ts: 'typescript',
  tsx: 'tsx',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'jsx',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  rb: 'ruby',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  scala: 'scala',
  swift: 'swift',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  php: 'php',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  ps1: 'powershell',
  sql: 'sql',
  html: 'html',
  css: 'css',
  scss: 'scss',
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  xml: 'xml',
  md: 'markdown',
  proto: 'protobuf',
  tf: 'hcl',
  hcl: 'hcl',
  lua: 'lua',
  r: 'r',
  dart: 'dart',
  ex: 'elixir',
  exs: 'elixir',
  erl: 'erlang',
  hs: 'haskell',
  ml: 'ocaml',
  clj: 'clojure',
  vue: 'vue',
  graphql: 'graphql',
  ini: 'ini',
};

/** Whole file names with a language of their own. */
const BY_NAME: Record<string, string> = {
  Dockerfile: 'dockerfile',
  Makefile: 'makefile',
};

/** The fence language of a repo-relative path: by file name, then by extension; '' (an empty fence) when unknown. */
export function languageOf(repoPath: string): string {
  const name = repoPath.split('/').pop() ?? repoPath;
  if (BY_NAME[name]) return BY_NAME[name];
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return '';
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? '';
}
