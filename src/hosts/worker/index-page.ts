// The page served at GET /: what pith is, its routes, and a form.

export const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pith: the main content of a web page</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:0 .25em}input[type=url]{width:100%;padding:.4em;font:inherit}
form{margin:1.5rem 0}label{margin-right:1rem}button{font:inherit;padding:.3em 1em}
</style>
</head>
<body>
<h1>pith</h1>
<p>pith fetches a web page and returns its main content, without navigation, ads or footers.
It classifies the page's text blocks with the Web2Text method (two small neural networks and a Viterbi pass).</p>
<form method="get" action="/v1/extract">
<p><input type="url" name="url" required placeholder="https://example.com/article" aria-label="Page URL"></p>
<p><label><input type="radio" name="format" value="text" checked> text</label>
<label><input type="radio" name="format" value="markdown"> markdown</label>
<label><input type="radio" name="format" value="html"> clean HTML</label>
<label><input type="radio" name="format" value="json"> JSON</label>
<label><input type="radio" name="format" value="debug"> debug view</label>
<button type="submit">Extract</button></p>
</form>
<h2>Routes</h2>
<ul>
<li><code>GET /https://example.com/article</code>: the main content as plain text (a missing scheme means https).</li>
<li><code>GET /v1/extract?url=https://example.com/article</code>: JSON with title, text, word count, model version and timings.</li>
<li><code>POST /v1/extract</code> with a <code>text/html</code> body (optional <code>?url=</code> for links) or JSON <code>{"html", "url"}</code>: the same JSON; nothing is fetched.</li>
<li><code>GET /feed/https://example.com/feed.xml</code> or <code>GET /v1/feed?url=...&amp;max=10</code>: the RSS, RDF or Atom feed with each item's clean article added (paste it into a feed reader).</li>
<li><code>GET /health</code>: status and model version.</li>
</ul>
<h2>Options</h2>
<p>As query parameters (also with a <code>pith_</code> prefix): <code>format=text|markdown|html|json|debug</code> (or an <code>Accept</code> header), <code>nocache=1</code>,
<code>debug=1</code> (blocks with labels and scores in JSON), <code>token=</code> when this pith needs one.</p>
<p>Errors are JSON: <code>{"error": {"code", "message"}}</code>.</p>
</body>
</html>
`;
