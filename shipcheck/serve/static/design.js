// The Design dialog: `shipcheck design` from the page (POST /api/design). It completes this ship (its
// tiles stay where they are) or designs a new one of a class, streamed with a progress bar; Cancel
// stops the search and keeps the best ship so far, as Ctrl-C does on the command line. The designed
// ship then loads into the workbench as one edit (Ctrl+Z gives back the ship before).

import * as api from './api.js';
import {esc} from './draw.js';

export class Design {
  constructor(dlg, ctx) {
    this.dlg = dlg;
    this.ctx = ctx;
    this.running = null;  // the AbortController of the design running (closing the page ends it)
    const s = ctx.S.session;
    const $ = (q) => dlg.querySelector(q);
    $('#design-class').innerHTML = s.classes.map((c) => `<option>${esc(c)}</option>`).join('');
    $('#design-edition').innerHTML = s.editions.map((e) => `<option>${esc(e)}</option>`).join('');
    $('#design-budget').value = s.defaults.design_budget;
    $('#design-budget').max = s.limits.design_budget;
    const mode = () => {
      const isNew = dlg.querySelector('input[name="design-from"]:checked').value === 'new';
      $('#design-class').disabled = !isNew;
      $('#design-edition').disabled = !isNew;
    };
    dlg.querySelectorAll('input[name="design-from"]').forEach((r) => r.addEventListener('change', mode));
    mode();
    $('#design-go').addEventListener('click', () => this.run());
    $('#design-stop').addEventListener('click', () => this.stop());
    // while a design runs the dialog stays open: Esc does not close it (Cancel stops the search)
    dlg.addEventListener('cancel', (e) => { if (this.running) e.preventDefault(); });
  }

  open() {
    const $ = (q) => this.dlg.querySelector(q);
    if (!this.running) {
      const doc = this.ctx.S.doc;
      $('#design-class').value = doc.class || 'I';
      $('#design-edition').value = this.ctx.edition();
      $('#design-msg').textContent = '';
    }
    this.dlg.showModal();
  }

  body() {
    const $ = (q) => this.dlg.querySelector(q);
    const mode = this.dlg.querySelector('input[name="design-from"]:checked').value;
    const body = mode === 'ship' ? this.ctx.shipBody() : {class: $('#design-class').value, edition: $('#design-edition').value};
    body.budget = Number($('#design-budget').value) || this.ctx.S.session.defaults.design_budget;
    const seed = $('#design-seed').value;
    if (seed !== '') body.seed = Number(seed);
    return {mode, body};
  }

  busy(on) {
    const $ = (q) => this.dlg.querySelector(q);
    $('#design-go').disabled = on;
    $('#design-close').disabled = on;
    $('#design-stop').hidden = !on;
    $('#design-stop').disabled = false;
    this.dlg.querySelectorAll('fieldset, .form-grid input').forEach((x) => { x.disabled = on; });
  }

  async run() {
    const $ = (q) => this.dlg.querySelector(q);
    const {mode, body} = this.body();
    const ctrl = new AbortController();
    this.running = ctrl;
    const bar = $('#design-bar');
    const stage = $('#design-stage');
    $('#design-progress').hidden = false;
    $('#design-msg').textContent = '';
    bar.removeAttribute('value');
    stage.textContent = 'starting…';
    this.busy(true);
    try {
      const last = await api.stream('/api/design', body, (ev) => {
        if (ev.type !== 'progress' || this.stopping) return;
        if (ev.total) { bar.max = ev.total; bar.value = ev.done; }
        const best = ev.best === null || ev.best === undefined ? '' : ` · best ${ev.best.toFixed(2)} credits so far`;
        const left = ev.seconds && ev.done ? ` · about ${Math.round(ev.seconds / ev.done * (ev.total - ev.done))} s left` : '';
        stage.textContent = `${ev.stage} · ${ev.done.toLocaleString()} / ${ev.total.toLocaleString()} candidates${best}${left}`;
      }, {signal: ctrl.signal});
      if (last && last.type === 'result') await this.done(last.result, mode);
      else if (last && last.type === 'cancelled') stage.textContent = 'cancelled';
    } catch (e) {
      stage.textContent = e.name === 'AbortError' ? 'cancelled' : 'failed';
      if (e.name !== 'AbortError') $('#design-msg').textContent = (e.errors || [String(e)]).join(' ');
    } finally {
      if (this.running === ctrl) this.running = null;
      this.stopping = false;
      this.busy(false);
    }
  }

  // Cancel: the server interrupts the search, which answers with its best ship so far
  async stop() {
    const $ = (q) => this.dlg.querySelector(q);
    if (!this.running) return;
    this.stopping = true;
    $('#design-stop').disabled = true;
    $('#design-stage').textContent = 'stopping: keeping the best ship so far…';
    try {
      await api.post('/api/cancel?kind=design', {});
    } catch (e) {
      this.running.abort();  // the server cannot be asked: drop the stream (the job ends with it)
    }
  }

  async done(r, mode) {
    const $ = (q) => this.dlg.querySelector(q);
    $('#design-bar').value = $('#design-bar').max;
    if (!r.history.length) {
      $('#design-stage').textContent = 'cancelled before any candidate was flown: the ship is unchanged';
      return;
    }
    await this.ctx.loadDesigned(r.doc, mode === 'new');
    this.dlg.close();
    const field = (r.field || []).map((f) => `${esc(f.ship)} ${f.credits.mean.toFixed(1)}`).join(', ');
    const earns = r.stopped === 'interrupted'
      ? `about <strong>${r.credits.mean.toFixed(2)}</strong> credits a round (the search's estimate: cancelled after ` +
        `${r.evaluations.toLocaleString()} of ${r.budget.toLocaleString()} candidates, the best ship so far)`
      : `<strong>${r.credits.mean.toFixed(2)}</strong> credits a round (95 %: ${r.credits.ci[0].toFixed(2)} to ` +
        `${r.credits.ci[1].toFixed(2)})${field ? `, beside the field: ${field}` : ''}`;
    this.ctx.showInfo(`<strong>Designed</strong> class ${esc(r.class)}, ${r.tiles} tiles: ${earns}. ` +
      `<span class="small">Ctrl+Z gives back the ship before. The same ship from the command line: ` +
      `<code>${esc(r.command)}</code></span>` + (r.notes || []).map((n) => `<p class="note small">note: ${esc(n)}</p>`).join(''));
  }
}
