// The workbench's JSON API: every request carries the token of the page's address.

const params = new URLSearchParams(location.search);
export const TOKEN = params.get('token') || '';
// this page's id: the server cancels the jobs of a page that closes
export const CLIENT = Math.random().toString(36).slice(2) + Date.now().toString(36);

export class ApiError extends Error {
  constructor(status, errors, body) {
    super(errors.join('\n'));
    this.status = status;
    this.errors = errors;
    this.body = body || {};
  }
}

function headers(json) {
  const h = {'Authorization': `Bearer ${TOKEN}`, 'X-Shipcheck-Client': CLIENT};
  if (json) h['Content-Type'] = 'application/json';
  return h;
}

async function failure(res) {
  let body = null;
  try { body = await res.json(); } catch (e) { body = null; }
  const errors = body && Array.isArray(body.errors) ? body.errors : [`${res.status} ${res.statusText}`];
  return new ApiError(res.status, errors, body);
}

export async function get(path, {signal} = {}) {
  const res = await fetch(path, {headers: headers(false), signal});
  if (!res.ok) throw await failure(res);
  return res.json();
}

export async function post(path, body, {signal} = {}) {
  const res = await fetch(path, {method: 'POST', headers: headers(true), body: JSON.stringify(body), signal});
  if (!res.ok) throw await failure(res);
  return res.json();
}

// A streamed job: JSON lines (progress..., then result, error or cancelled). Abort the signal to cancel.
export async function stream(path, body, onEvent, {signal} = {}) {
  const res = await fetch(path, {method: 'POST', headers: headers(true), body: JSON.stringify(body), signal});
  if (!res.ok) throw await failure(res);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let last = null;
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    buf += decoder.decode(value, {stream: true});
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line) continue;
      const ev = JSON.parse(line);
      last = ev;
      onEvent(ev);
    }
  }
  if (last && last.type === 'error') throw new ApiError(400, last.errors, last);
  return last;
}

// When the page closes: cancel this page's jobs (the server also notices the dropped streams).
export function cancelOnClose() {
  window.addEventListener('pagehide', () => {
    navigator.sendBeacon(`/api/cancel?token=${encodeURIComponent(TOKEN)}&client=${encodeURIComponent(CLIENT)}`);
  });
}
