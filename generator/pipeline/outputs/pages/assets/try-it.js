// The API reference's "try it" forms, and its example responses. Each form sends its operation to the API on this page's own origin, so
// it works wherever the site is served (a deploy, a preview, npm start), and shows the answer.
const MAX_SHOWN = 20000;

function show(result, lines, body) {
  result.replaceChildren();
  const status = document.createElement('p');
  status.className = 'status';
  status.textContent = lines.join(' · ');
  const pre = document.createElement('pre');
  const code = document.createElement('code');
  code.textContent = body.length > MAX_SHOWN ? `${body.slice(0, MAX_SHOWN)}\n… (${body.length} characters in all)` : body;
  pre.append(code);
  result.append(status, pre);
}

async function send(form) {
  const url = new URL(form.dataset.path, window.location.href);
  for (const input of form.querySelectorAll('input[name]')) if (input.value !== '') url.searchParams.set(input.name, input.value);
  const result = form.querySelector('.result');
  result.textContent = 'Sending…';
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    const text = await response.text();
    let body = text;
    try {
      body = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON: shown as it came.
    }
    const remaining = response.headers.get('RateLimit');
    show(
      result,
      [`GET ${url.pathname}${url.search}`, `${response.status} ${response.statusText}`, remaining ? `RateLimit ${remaining}` : ''].filter(
        Boolean,
      ),
      body,
    );
  } catch (error) {
    show(result, [`GET ${url.pathname}${url.search}`, 'no answer'], String(error?.message ? error.message : error));
  }
}

for (const form of document.querySelectorAll('form.try')) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    send(form);
  });
}

// The example responses are in examples.json beside the page, which keeps the page itself small: loaded
// once, the first time one is opened.
let examples;
for (const details of document.querySelectorAll('details.example')) {
  details.addEventListener('toggle', async () => {
    if (!details.open || details.dataset.shown) return;
    details.dataset.shown = 'yes';
    const code = details.querySelector('pre > code');
    try {
      examples ??= fetch(new URL('examples.json', import.meta.url)).then((response) => response.json());
      code.textContent = JSON.stringify((await examples)[details.dataset.operation], null, 2);
    } catch (error) {
      examples = undefined;
      delete details.dataset.shown;
      code.textContent = `The example could not be loaded (${error?.message ?? error}); it is in examples.json.`;
    }
  });
}
