/** Text for HTML: the five characters that could open markup or an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/**
 * A page of its own for what stops the console before the web app can load (an unreachable identity service, a web
 * app that was not built): never a blank page or a bare status. Self-contained (no script, no asset) so it renders
 * whatever else is down.
 */
export function errorPage(input: { status: number; title: string; code: string; message: string }): string {
  const title = escapeHtml(input.title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Keel</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
main{max-width:40rem;margin:12vh auto;padding:2rem;background:#fff;border:1px solid #d8dce3;border-radius:8px}
h1{font-size:1.4rem;margin:0 0 1rem}code{background:#eef0f4;padding:.1rem .35rem;border-radius:4px}
a{color:#1f5fbf}
</style>
</head>
<body>
<main>
<h1>${title}</h1>
<p>${escapeHtml(input.message)}</p>
<p>Error code: <code data-error-code>${escapeHtml(input.code)}</code> (HTTP ${input.status})</p>
<p><a href="">Try again</a></p>
</main>
</body>
</html>
`;
}
