// The Fly pane: exact odds of attacks or cards (a heat map on the ship), and whole rounds against the
// default field or chosen opponents, streamed with a progress bar and cancellable.

import * as api from './api.js';
import {histogram, scale, stacked} from './charts.js';
import {esc, pct} from './draw.js';

const SOURCES = ['cards', 'goods', 'arrival', 'best_looking', 'penalty'];
const SOURCE_COLOURS = {cards: '#7c3aed', goods: '#2563eb', arrival: '#2a9d8f', best_looking: '#e09f3e',
  penalty: '#d7263d'};

// what a job's failure shows: nothing more when it was cancelled, else the server's errors
function failed(e, out) {
  if (e.name === 'AbortError') return 'cancelled';
  out.innerHTML = `<div class="errors">${(e.errors || [String(e)]).map((x) => `<p>${esc(x)}</p>`).join('')}</div>`;
  return 'failed';
}

export class Fly {
  constructor(pane, ctx) {
    this.pane = pane;
    this.ctx = ctx;
    this.attacks = [];
    this.cards = [];
    this.cardList = null;
    this.running = null;
    this.computing = null;
    this.build();
  }

  build() {
    const s = this.ctx.S.session;
    this.pane.innerHTML = `
      <section class="fly-odds">
        <h3>Exact odds</h3>
        <div class="seg" role="radiogroup" aria-label="What to fly">
          <label><input type="radio" name="odds-mode" value="attacks" checked> attacks</label>
          <label><input type="radio" name="odds-mode" value="cards"> cards</label>
        </div>
        <div class="odds-attacks">
          <label>Attack <select id="atk-kind">${s.attack_kinds.map((k) => `<option>${k}</option>`).join('')}</select></label>
          <label>from <select id="atk-from">${s.directions.map((d) => `<option>${d}</option>`).join('')}</select></label>
          <button type="button" id="atk-add">Add</button>
        </div>
        <div class="odds-cards" hidden>
          <label>Card <select id="card-pick"></select></label>
          <button type="button" id="card-add">Add</button>
          <label class="check"><input type="checkbox" id="assume-weakest" checked> the ship is the weakest (combat zones)</label>
        </div>
        <ol id="odds-list" class="chips" aria-label="In order"></ol>
        <div class="row-buttons">
          <button type="button" id="odds-go" class="primary">Compute the odds</button>
          <button type="button" id="odds-stop" hidden>Cancel</button>
        </div>
        <div class="progress" id="odds-progress" hidden>
          <progress id="odds-bar" max="1" value="0"></progress><span id="odds-stage" class="small"></span>
        </div>
        <div id="odds-out" aria-live="polite"></div>
      </section>
      <section class="fly-round">
        <h3>Whole rounds</h3>
        <div class="form-grid">
          <label>Round <select id="round-pick">${s.rounds.map((r) => `<option value="${r}">${r}</option>`).join('')}</select></label>
          <label>Runs <input id="round-runs" type="number" min="10" max="${s.limits.round_runs}" step="1000" value="${s.defaults.round_runs}"></label>
          <label>Seed <input id="round-seed" type="number" min="0" placeholder="random"></label>
        </div>
        <fieldset class="opponents"><legend>Opponents</legend>
          <label class="check"><input type="radio" name="opp" value="field" checked> the default field of the class</label>
          <label class="check"><input type="radio" name="opp" value="files"> ship files (up to ${s.limits.opponents}):</label>
          <div id="opp-files" class="opp-files"></div>
        </fieldset>
        <div class="row-buttons">
          <button type="button" id="round-go" class="primary">Fly rounds</button>
          <button type="button" id="round-stop" hidden>Cancel</button>
        </div>
        <div class="progress" id="round-progress" hidden>
          <progress id="round-bar" max="1" value="0"></progress><span id="round-stage" class="small"></span>
        </div>
        <div id="round-out" aria-live="polite"></div>
      </section>`;
    const $ = (q) => this.pane.querySelector(q);
    this.pane.querySelectorAll('input[name="odds-mode"]').forEach((r) => r.addEventListener('change', () => {
      const cards = $('input[name="odds-mode"]:checked').value === 'cards';
      $('.odds-attacks').hidden = cards;
      $('.odds-cards').hidden = !cards;
      if (cards) this.loadCards();
      this.drawList();
    }));
    $('#atk-add').addEventListener('click', () => {
      if (this.attacks.length >= s.limits.attacks) return;
      this.attacks.push(`${$('#atk-kind').value}:${$('#atk-from').value}`);
      this.drawList();
    });
    $('#card-add').addEventListener('click', () => {
      const v = $('#card-pick').value;
      if (v && this.cards.length < s.limits.cards) this.cards.push(v);
      this.drawList();
    });
    $('#odds-go').addEventListener('click', () => this.odds());
    $('#odds-stop').addEventListener('click', () => this.computing && this.computing.abort());
    $('#round-go').addEventListener('click', () => this.round());
    $('#round-stop').addEventListener('click', () => this.running && this.running.abort());
    this.pane.querySelectorAll('input[name="opp"]').forEach((r) => r.addEventListener('change', () => this.loadFiles()));
  }

  mode() { return this.pane.querySelector('input[name="odds-mode"]:checked').value; }

  // the round of the ship's board, when the ship changes class
  shipChanged(board) {
    const key = `${board.name}`;
    if (this.board === key) return;
    this.board = key;
    const rnd = board.name === 'IIIa' ? '3a' : String(Math.min(board.level, 3));
    this.pane.querySelector('#round-pick').value = rnd;
    this.cardList = null;
    if (this.mode() === 'cards') this.loadCards();
  }

  drawList() {
    const list = this.mode() === 'cards' ? this.cards : this.attacks;
    const ol = this.pane.querySelector('#odds-list');
    ol.innerHTML = list.map((x, n) => `<li>${esc(x)} <button type="button" class="x" data-n="${n}" ` +
      `aria-label="remove ${esc(x)}">×</button></li>`).join('') || '<li class="muted">nothing yet: add some</li>';
    ol.querySelectorAll('.x').forEach((b) => b.addEventListener('click', () => {
      list.splice(Number(b.dataset.n), 1);
      this.drawList();
    }));
  }

  async loadCards() {
    const ed = this.ctx.edition();
    if (this.cardList && this.cardList.edition === ed) return;
    const res = await api.get(`/api/cards?edition=${ed}`);
    this.cardList = res;
    const pick = this.pane.querySelector('#card-pick');
    pick.innerHTML = res.cards.filter((c) => c.flyable).map((c) => {
      const what = c.type.replace(/_/g, ' ');
      return `<option value="${esc(c.id)}">${esc(c.id)} ${esc(what)}${c.strength ? ` (strength ${c.strength})` : ''}</option>`;
    }).join('');
  }

  async loadFiles() {
    const box = this.pane.querySelector('#opp-files');
    if (this.pane.querySelector('input[name="opp"]:checked').value !== 'files') { box.replaceChildren(); return; }
    box.textContent = 'looking for ship files…';
    const res = await api.get('/api/files');
    box.innerHTML = res.files.map((f) => `<label class="check"><input type="checkbox" value="${esc(f)}"> ${esc(f)}</label>`)
      .join('') || '<p class="muted small">no ship files in this folder</p>';
  }

  opponents() {
    if (this.pane.querySelector('input[name="opp"]:checked').value === 'field') return null;
    return [...this.pane.querySelectorAll('#opp-files input:checked')].map((x) => x.value);
  }

  async odds() {
    const out = this.pane.querySelector('#odds-out');
    const body = this.ctx.shipBody();
    if (this.mode() === 'cards') {
      body.cards = this.cards;
      body.assume_weakest = this.pane.querySelector('#assume-weakest').checked;
      const opp = this.opponents();
      if (opp && opp.length) { body.opponents = opp; body.assume_weakest = false; }
    } else {
      body.attacks = this.attacks;
    }
    const $ = (q) => this.pane.querySelector(q);
    if (this.computing) this.computing.abort();
    const ctrl = new AbortController();
    this.computing = ctrl;
    $('#odds-progress').hidden = false;
    $('#odds-stop').hidden = false;
    $('#odds-go').disabled = true;
    $('#odds-bar').removeAttribute('value');  // no fraction known: the bar moves, the seconds count
    $('#odds-stage').textContent = 'starting…';
    out.replaceChildren();
    let r = null;
    try {
      // exact odds are a job on the server (one at a time: 429 while another page's runs)
      const last = await api.stream('/api/odds', body, (ev) => {
        if (ev.type === 'progress') {
          $('#odds-stage').textContent = `${ev.stage}${ev.seconds ? ` · ${ev.seconds.toFixed(1)} s` : ''}`;
        }
      }, {signal: ctrl.signal});
      if (last && last.type === 'cancelled') $('#odds-stage').textContent = 'cancelled';
      if (last && last.type === 'result') {
        r = last.result;
        $('#odds-stage').textContent = `done in ${last.seconds} s`;
      }
    } catch (e) {
      $('#odds-stage').textContent = failed(e, out);
    } finally {
      if (this.computing === ctrl) {
        this.computing = null;
        $('#odds-stop').hidden = true;
        $('#odds-go').disabled = false;
        $('#odds-bar').max = 1;
        $('#odds-bar').value = r ? 1 : 0;
      }
    }
    if (!r) return;
    try {
      const dist = Object.entries(r.lost_distribution).map(([k, v]) => `${k}: ${pct(v)}`).join(' · ');
      const outcomes = (r.card_outcomes || []).filter((e) => e.type !== 'meteor_swarm').map((e) => e.type === 'combat_zone'
        ? `${esc(e.card)} combat zone: hit on ${e.hit.map((p, n) => `line ${n + 1} ${pct(p)}`).join(', ')}`
        : `${esc(e.card)} ${esc(e.type)}: win ${pct(e.win)}, tie ${pct(e.tie)}, lose ${pct(e.lose)}`);
      out.innerHTML = `<p class="big-number">survive <strong>${pct(r.p_survive)}</strong> · expected lost ` +
        `<strong>${r.expected_lost.toFixed(3)}</strong></p>` +
        (r.fractions ? `<p class="small muted">as exact fractions: survive ${esc(r.fractions.p_survive)}, expected lost ` +
          `${esc(r.fractions.expected_lost)}</p>` : '') +
        `<p class="small">components lost: ${dist}</p>` + outcomes.map((o) => `<p class="small">${o}</p>`).join('') +
        (r.notes || []).map((n) => `<p class="note">note: ${esc(n)}</p>`).join('') +
        `<p class="small muted">${r.seconds} s on the server · the heat map on the ship shows each tile's chance of being lost</p>`;
      const tiles = {};
      for (const t of r.tiles) tiles[JSON.stringify(t.at)] = t.p_lost;
      this.ctx.showHeat(tiles, 'chance each tile is lost', 'lost');
    } catch (e) {
      out.innerHTML = `<div class="errors">${(e.errors || [String(e)]).map((x) => `<p>${esc(x)}</p>`).join('')}</div>`;
    }
  }

  async round() {
    const $ = (q) => this.pane.querySelector(q);
    if (this.running) this.running.abort();
    const ctrl = new AbortController();
    this.running = ctrl;
    const body = this.ctx.shipBody();
    body.round = $('#round-pick').value;
    body.runs = Number($('#round-runs').value) || this.ctx.S.session.defaults.round_runs;
    const seed = $('#round-seed').value;
    if (seed !== '') body.seed = Number(seed);
    const opp = this.opponents();
    if (opp !== null) body.opponents = opp;
    const out = $('#round-out');
    const bar = $('#round-bar');
    $('#round-progress').hidden = false;
    $('#round-stop').hidden = false;
    $('#round-go').disabled = true;
    bar.value = 0;
    bar.removeAttribute('value');
    $('#round-stage').textContent = 'starting…';
    out.replaceChildren();
    try {
      const last = await api.stream('/api/round', body, (ev) => {
        if (ev.type === 'progress') {
          if (ev.total) { bar.max = ev.total; bar.value = ev.done; }
          $('#round-stage').textContent = `${ev.stage || ''} ${ev.done !== undefined ? `${ev.done.toLocaleString()} / ${ev.total.toLocaleString()} rounds` : ''}`;
        }
      }, {signal: ctrl.signal});
      if (last && last.type === 'result') {
        bar.max = 1; bar.value = 1;
        $('#round-stage').textContent = `done in ${last.seconds} s`;
        this.showRound(last.result);
      } else if (last && last.type === 'cancelled') {
        $('#round-stage').textContent = 'cancelled';
      }
    } catch (e) {
      $('#round-stage').textContent = failed(e, out);
    } finally {
      if (this.running === ctrl) this.running = null;
      $('#round-stop').hidden = true;
      $('#round-go').disabled = false;
    }
  }

  showRound(r) {
    const out = this.pane.querySelector('#round-out');
    const ci = (x) => `${x[0].toFixed(1)} to ${x[1].toFixed(1)}`;
    const players = [{name: r.name || 'this ship', me: true, ...r}, ...r.opponents];
    const table = '<table class="round-table"><thead><tr><th>ship</th><th>credits</th><th>finish</th><th>survive</th>' +
      '<th>lost</th></tr></thead><tbody>' + players.map((p) => `<tr${p.me ? ' class="me"' : ''}><th scope="row">${esc(p.name)}</th>` +
      `<td>${p.credits.mean.toFixed(1)}${p.credits.ci ? `<span class="muted small"> (${ci(p.credits.ci)})</span>` : ''}</td>` +
      `<td>${pct(p.p_finish)}</td><td>${pct(p.p_survive)}</td><td>${p.expected_lost.toFixed(2)}</td></tr>`).join('') +
      '</tbody></table>';
    const common = scale(players.map((p) => p.credits.distribution));  // one scale: the ship beside the field
    // charts drawn at the size they are shown, so that their 11 px labels are 11 px on screen
    const full = Math.max(200, out.clientWidth || 340);
    const half = window.matchMedia('(max-width: 760px)').matches ? full : Math.floor((full - 6) / 2);
    const hists = players.map((p) => `<figure class="${p.me ? 'me' : ''}"><figcaption>${esc(p.name)}</figcaption>` +
      histogram(p.credits.distribution, {mean: p.credits.mean, ci: p.credits.ci, title: `credits of ${p.name}`,
        unit: 'credits', height: p.me ? 130 : 100, width: p.me ? full : half, range: common.range,
        top: common.top}) + '</figure>').join('');
    let sources;
    if (players.every((p) => p.credits.by_source)) {
      const rows = players.map((p) => ({name: p.name, parts: p.credits.by_source}));
      const field = players.slice(1);
      if (field.length > 1) {
        const mean = {};
        for (const k of SOURCES) mean[k] = field.reduce((a, p) => a + (p.credits.by_source[k] || 0), 0) / field.length;
        rows.splice(1, 0, {name: 'the field (mean)', parts: mean});
      }
      const num = (v) => `${v >= 0 ? '' : '−'}${Math.abs(v).toFixed(1)}`;
      sources = '<h4>Where the credits come from</h4>' + stacked(rows, SOURCES, SOURCE_COLOURS, {width: full}) +
        '<p class="legend-line">' + SOURCES.map((k) => `<span class="sw" data-colour="${k}"></span>${k.replace('_', ' ')}`).join(' ') + '</p>' +
        '<div class="scroll-x"><table class="round-table small"><thead><tr><th>ship</th>' +
        SOURCES.map((k) => `<th>${k === 'best_looking' ? 'looks' : k}</th>`).join('') +
        '</tr></thead><tbody>' + rows.map((r, n) => `<tr${n === 0 ? ' class="me"' : ''}><th scope="row">${esc(r.name)}</th>` +
          SOURCES.map((k) => `<td>${num(r.parts[k] || 0)}</td>`).join('') + '</tr>').join('') + '</tbody></table></div>' +
        '<p class="small muted">means over the runs (looks: the best-looking ship bonus); the parts of a run add ' +
        'up to its credits</p>';
    } else {
      sources = '<h4>Where the credits come from</h4><table class="round-table"><thead><tr><th>ship</th><th>from cards</th>' +
        '<th>the rest</th></tr></thead><tbody>' + players.map((p) => `<tr${p.me ? ' class="me"' : ''}><th scope="row">${esc(p.name)}</th>` +
        `<td>${p.card_credits.toFixed(2)}</td><td>${(p.credits.mean - p.card_credits).toFixed(2)}</td></tr>`).join('') +
        '</tbody></table><p class="small muted">credits paid by cards, and the rest (goods, arrival, best-looking ' +
        'ship, minus lost components) together</p>';
    }
    const byType = Object.entries(r.by_card_type || {})
      .filter(([, v]) => v.expected_lost > 0.005 || v.expected_credits > 0.005 || (v.expected_goods_value || 0) > 0.005)
      .sort((a, b) => b[1].expected_lost - a[1].expected_lost)
      .map(([k, v]) => `<li>${esc(k.replace(/_/g, ' '))}: loses ${v.expected_lost.toFixed(2)}, earns ${v.expected_credits.toFixed(2)}` +
        `${v.expected_goods_value ? `, loads goods worth ${v.expected_goods_value.toFixed(2)}` : ''}</li>`).join('');
    out.innerHTML = `<p class="big-number">${r.credits.mean.toFixed(1)} credits a round <span class="muted small">` +
      `(${ci(r.credits.ci)}, ${r.runs.toLocaleString()} rounds, seed ${r.seed})</span></p>` + table +
      `<div class="hists">${hists}</div>` + sources +
      (byType ? `<h4>By card type</h4><ul class="small">${byType}</ul>` : '') +
      `<p class="small">Same numbers from the command line: <code>${esc(r.command)}</code></p>` +
      (r.notes || []).map((n) => `<p class="note">note: ${esc(n)}</p>`).join('') +
      '<button type="button" id="round-heat">Show the tiles lost in the round on the ship</button>';
    out.querySelectorAll('.sw').forEach((s) => { s.style.background = SOURCE_COLOURS[s.dataset.colour]; });
    out.querySelector('#round-heat').addEventListener('click', () => {
      const tiles = {};
      for (const t of r.tiles) tiles[JSON.stringify(t.at)] = t.p_lost;
      this.ctx.showHeat(tiles, 'chance each tile is lost in the round', 'lost');
    });
  }
}
