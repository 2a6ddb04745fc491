// The workbench page: the ship being built (a document with the keys of a ship file), its edits
// with undo and redo, and what the server says after each edit.

import * as api from './api.js';
import {Board} from './board.js';
import {Design} from './design.js';
import {esc, kindLabel, pct, setup, tileSVG, turned} from './draw.js';
import {Fly} from './fly.js';
import {renderCheck, renderStats, renderTile} from './panels.js';

const $ = (q) => document.querySelector(q);
const clone = (x) => JSON.parse(JSON.stringify(x));
const key = (at) => JSON.stringify(at);

const S = {
  session: null,
  path: null,          // the file the ship came from (shown relative to the start folder)
  doc: null,           // the ship: the keys of a ship file
  analysis: null,      // what the server said of it
  fix: null,           // the minimal repair of an illegal ship ('pending' while it is worked out)
  undo: [], redo: [],
  hand: null,          // {entry, rot, from: 'palette'|'aside'|'move'|'custom', index?, origin?}
  selected: null,      // square index of the selected tile
  advice: null,        // the advisor's placements for the tile in hand
  heat: null,          // {tiles: {i: p}, top, what}
  marked: null,        // squares highlighted from the Check pane
  dirty: false,
  catalogue: new Map(),
  edition: null,
  seq: 0,
};

let board;
let fly;
let designer;
let adviceCtrl = null;

// -- talking to the server --------------------------------------------------------------------------
function shipBody() {
  const b = {ship: S.doc};
  if (S.path) b.path = S.path;
  return b;
}

function showErrors(errors, title = 'The server refused this') {
  const el = $('#banner');
  el.innerHTML = `<strong>${esc(title)}</strong><ul>${errors.map((e) => `<li>${esc(e)}</li>`).join('')}</ul>` +
    '<button type="button" class="x" aria-label="dismiss">×</button>';
  el.hidden = false;
  el.querySelector('.x').addEventListener('click', () => { el.hidden = true; });
}

function hideErrors() { $('#banner').hidden = true; }

async function analyze() {
  const seq = ++S.seq;
  const res = await api.post('/api/analyze', shipBody());
  if (seq !== S.seq) return false;
  S.analysis = res;
  S.fix = null;
  if (!res.check.legal) repair(seq);
  return true;
}

// the minimal repair of an illegal ship, asked once the edit is drawn (an integer program: slower)
async function repair(seq) {
  S.fix = 'pending';
  try {
    const f = await api.post('/api/fix', shipBody());
    if (seq !== S.seq) return;
    S.fix = f;
  } catch (e) {
    if (seq !== S.seq) return;
    S.fix = null;
  }
  renderCheck($('#pane-check'), ctx);
}

// -- the ship -------------------------------------------------------------------------------------
async function loadCatalogue(edition) {
  if (S.edition === edition) return;
  const res = await api.get(`/api/tiles?edition=${edition}`);
  S.catalogue = new Map(res.tiles.map((t) => [t.id, t]));
  S.edition = edition;
  kindFilter();
  renderPalette();
}

function edition() { return S.doc && S.doc.edition ? S.doc.edition : '2007'; }

async function setShip(res, path) {
  S.path = path;
  S.doc = res.doc;
  S.analysis = res.analysis;
  S.fix = null;
  if (!res.analysis.check.legal) repair(++S.seq);
  S.undo = [];
  S.redo = [];
  S.hand = null;
  S.selected = null;
  S.heat = null;
  S.marked = null;
  S.advice = null;
  S.dirty = false;
  hideErrors();
  await loadCatalogue(edition());
  render();
}

async function edit(fn, {keepHeat = false} = {}) {
  const before = clone(S.doc);
  fn(S.doc);
  S.undo.push(before);
  if (S.undo.length > 500) S.undo.shift();
  S.redo = [];
  S.dirty = true;
  if (!keepHeat) S.heat = null;
  S.marked = null;
  try {
    await analyze();
    hideErrors();
  } catch (e) {
    S.doc = S.undo.pop();  // the edit is refused: the ship stays as it was
    if (e.errors) showErrors(e.errors); else throw e;
  }
  render();
  if (S.hand) requestAdvice();
}

async function undoRedo(from, to) {
  if (!from.length) return;
  to.push(clone(S.doc));
  S.doc = from.pop();
  S.dirty = true;
  S.heat = null;
  S.marked = null;
  S.selected = null;
  try { await analyze(); hideErrors(); } catch (e) { if (e.errors) showErrors(e.errors); }
  await loadCatalogue(edition());  // a designed ship may be of another edition
  render();
  if (S.hand) requestAdvice();
}

function tileIndex(doc, at) {
  const k = key(at);
  return (doc.tile || []).findIndex((t) => key(t.at) === k);
}

function squareAt(i) { return S.analysis.view.squares[i]; }
function tileAt(i) { return S.analysis.view.tiles.find((t) => t.i === i) || null; }

function entryOf(t) {
  // the [[tile]] entry of a drawn tile (an implied pilot cabin gets one written out)
  const idx = tileIndex(S.doc, t.at);
  if (idx >= 0) return clone(S.doc.tile[idx]);
  return {at: t.at, kind: 'start_cabin', sides: '3333'};
}

function identity(entry) {
  const out = {};
  if (entry.id) out.id = entry.id;
  else for (const k of ['kind', 'sides', 'cells', 'slots', 'special_slots', 'color']) if (k in entry) out[k] = entry[k];
  return out;
}

function withRot(entry, rot) {
  const e = {...entry};
  if (rot) e.rot = rot; else delete e.rot;
  return e;
}

// -- actions ---------------------------------------------------------------------------------------
async function activate(i) {
  const sq = squareAt(i);
  const t = tileAt(i);
  if (S.hand) {
    if (t && S.hand.origin !== i) { flash(`square ${sq.label} holds a tile: choose an empty square`); return; }
    if (sq.state === 'off') return;
    await place(i);
    return;
  }
  S.selected = t ? i : null;
  S.marked = null;
  render();
  if (t) selectTab('tile');
}

async function place(i) {
  const h = S.hand;
  const sq = squareAt(i);
  const entry = withRot({at: sq.at, ...h.entry}, h.rot);
  S.hand = null;
  cancelAdvice();
  await edit((doc) => {
    doc.tile = doc.tile || [];
    if (h.from === 'move') {
      const idx = tileIndex(doc, h.originAt);
      if (idx >= 0) doc.tile.splice(idx, 1);
    }
    if (h.from === 'aside') doc.aside.splice(h.index, 1);
    if (doc.aside && !doc.aside.length) delete doc.aside;
    doc.tile.push(entry);
  });
  S.selected = i;
  say(`placed ${kindLabel(turnedOf(entry).kind)} on square ${sq.label}`);
  render();
}

function turnedOf(entry) {
  if (entry.id) return S.catalogue.get(entry.id) || {kind: entry.kind || 'structural', sides: '0000'};
  const attrs = {};
  for (const k of ['cells', 'slots', 'special_slots', 'color']) if (k in entry) attrs[k] = entry[k];
  return {kind: entry.kind, sides: entry.sides, attrs};
}

async function moveTile(from, to) {
  const t = tileAt(from);
  if (!t || tileAt(to)) return;
  const entry = entryOf(t);
  await edit((doc) => {
    const idx = tileIndex(doc, t.at);
    if (idx >= 0) doc.tile.splice(idx, 1);
    doc.tile = doc.tile || [];
    doc.tile.push({...entry, at: squareAt(to).at});
  });
  S.selected = to;
  say(`moved to square ${squareAt(to).label}`);
  render();
}

async function setAside(i) {
  const t = tileAt(i);
  if (!t || t.implied) return;
  await edit((doc) => {
    const idx = tileIndex(doc, t.at);
    const entry = doc.tile.splice(idx, 1)[0];
    doc.aside = doc.aside || [];
    doc.aside.push(identity(entry));
    if (!doc.tile.length) delete doc.tile;
  });
  if (S.selected === i) S.selected = null;
  render();
}

async function removeTile(i) {
  const t = tileAt(i);
  if (!t || t.implied) return;
  await edit((doc) => {
    doc.tile.splice(tileIndex(doc, t.at), 1);
    if (!doc.tile.length) delete doc.tile;
  });
  S.selected = null;
  say(`removed the tile on square ${squareAt(i).label}`);
  render();
}

async function rotate(i, by) {
  const t = tileAt(i);
  if (!t) return;
  const entry = entryOf(t);
  const rot = (((entry.rot || 0) + by) % 360 + 360) % 360;
  await edit((doc) => {
    const idx = tileIndex(doc, t.at);
    if (idx >= 0) doc.tile[idx] = withRot(doc.tile[idx], rot);
    else (doc.tile = doc.tile || []).push(withRot(entry, rot));
  });
}

async function setField(i, field, value) {
  const t = tileAt(i);
  if (!t) return;
  const entry = entryOf(t);
  await edit((doc) => {
    let idx = tileIndex(doc, t.at);
    if (idx < 0) { (doc.tile = doc.tile || []).push(entry); idx = doc.tile.length - 1; }
    const e = doc.tile[idx];
    if (field === 'crew' && value === 'humans') delete e.crew;
    else if (field === 'goods' && !value.length) delete e.goods;
    else e[field] = value;
  });
}

function pickUp(i) {
  const t = tileAt(i);
  if (!t || t.implied) return;
  const entry = entryOf(t);
  const rot = entry.rot || 0;
  const rest = {...entry};
  delete rest.at;
  delete rest.rot;
  takeInHand({entry: rest, rot, from: 'move', origin: i, originAt: t.at});
}

function takeInHand(h) {
  S.hand = h;
  S.selected = null;
  render();
  requestAdvice();
  board.focusBoard();
  say(`in hand: ${handName()}; choose a square, R turns it, Esc drops it`);
}

function dropHand() {
  if (!S.hand) return;
  S.hand = null;
  cancelAdvice();
  render();
}

function rotateHand(by) {
  if (!S.hand) return;
  S.hand.rot = ((S.hand.rot + by) % 360 + 360) % 360;
  renderHand();
  renderBoard();
}

async function handAside() {
  const h = S.hand;
  if (!h) return;
  if (h.from === 'move') { dropHand(); await setAside(h.origin); return; }
  if (h.from === 'aside') { dropHand(); return; }
  S.hand = null;
  cancelAdvice();
  await edit((doc) => { (doc.aside = doc.aside || []).push(identity(h.entry)); });
}

async function applyFix() {
  const f = S.fix;
  if (!f || !f.removed.length) return;
  const gone = new Set(f.removed.map(key));
  await edit((doc) => {
    doc.tile = (doc.tile || []).filter((t) => !gone.has(key(t.at)));
    if (!doc.tile.length) delete doc.tile;
  });
  say(`repair applied: ${f.lost} component${f.lost === 1 ? '' : 's'} removed`);
}

// a designed ship (the Design dialog) in place of this one, as one edit; a new one is not saved yet
async function loadDesigned(doc, isNew) {
  dropHand();
  S.selected = null;
  const keep = isNew ? {} : Object.fromEntries(['meta'].filter((k) => k in S.doc).map((k) => [k, S.doc[k]]));
  await edit((d) => {
    for (const k of Object.keys(d)) delete d[k];
    Object.assign(d, keep, clone(doc));
  });
  if (isNew) S.path = null;
  await loadCatalogue(edition());
  render();
  say('the designed ship is on the board; Ctrl+Z gives back the ship before');
}

function showInfo(html) {
  const el = $('#banner');
  el.className = 'banner info';
  el.innerHTML = `${html}<button type="button" class="x" aria-label="dismiss">×</button>`;
  el.hidden = false;
  el.querySelector('.x').addEventListener('click', () => { el.hidden = true; el.className = 'banner'; });
}

// -- the placement advisor --------------------------------------------------------------------------
function handSpec() {
  const e = S.hand.entry;
  if (e.id) return e.id;
  const attrs = ['cells', 'slots', 'special_slots', 'color'].filter((k) => k in e).map((k) => `${k}=${e[k]}`);
  return `${e.kind}:${e.sides}${attrs.length ? `:${attrs.join(',')}` : ''}`;
}

function handName() {
  const t = turnedOf(S.hand.entry);
  return `${kindLabel(t.kind)}${S.hand.entry.id ? ` ${S.hand.entry.id}` : ` ${t.sides}`}`;
}

function cancelAdvice() {
  if (adviceCtrl) adviceCtrl.abort();
  adviceCtrl = null;
  S.advice = null;
  S.pending = null;
}

// show the ranking by credits in place of the ranking by score, visibly (the ranks flash once)
function settle(advice) {
  S.advice = advice;
  S.pending = null;
  renderHand();
  renderBoard();
  board.el.classList.remove('settling');
  void board.el.offsetWidth;  // restart the animation
  board.el.classList.add('settling');
  setTimeout(() => board.el.classList.remove('settling'), 1600);
  say('the ranks now come from the ranking by credits');
}

// N, Shift+N: the keyboard to the next (previous) ranked square at this turn, best first; with
// none at this turn, the tile is turned to the best placement first
function jumpRank(d) {
  if (!S.hand || !S.advice || !S.advice.placements.length) return;
  let here = S.advice.placements.filter((p) => p.rot === S.hand.rot);
  if (!here.length) {
    rotateHand(S.advice.placements[0].rot - S.hand.rot);
    here = S.advice.placements.filter((p) => p.rot === S.hand.rot);
  }
  const k = here.findIndex((p) => p.i === board.focus);
  const next = k < 0 ? (d > 0 ? 0 : here.length - 1) : (k + d + here.length) % here.length;
  board.setFocus(here[next].i);
  say(`square ${squareAt(here[next].i).label}: rank ${here[next].rank} of ${S.advice.placements.length}`);
}

async function requestAdvice() {
  cancelAdvice();
  if (!S.hand) return;
  const ctrl = new AbortController();
  adviceCtrl = ctrl;
  const body = shipBody();
  if (S.hand.from === 'move') {
    // the ship as it would be without the tile being moved
    body.ship = clone(S.doc);
    const idx = tileIndex(body.ship, S.hand.originAt);
    if (idx >= 0) body.ship.tile.splice(idx, 1);
  }
  body.tile = handSpec();
  try {
    const quick = await api.post('/api/place', body, {signal: ctrl.signal});
    if (adviceCtrl !== ctrl) return;
    S.advice = {placements: quick.placements, credits: false, reason: quick.reason, progress: null};
    renderHand();
    renderBoard();
    if (!$('#advice-credits') || !$('#advice-credits').checked || !quick.placements.length) return;
    body.runs = 1000;
    const last = await api.stream('/api/place/credits', body, (ev) => {
      if (ev.type === 'progress' && adviceCtrl === ctrl) {
        S.advice.progress = ev.total ? ev.done / ev.total : 0;
        S.advice.stage = ev.stage;
        renderHandProgress();
      }
    }, {signal: ctrl.signal});
    if (adviceCtrl !== ctrl || !last || last.type !== 'result') return;
    const ready = {placements: last.result.placements, credits: true, reason: last.result.reason, progress: null};
    if (board.el.matches(':hover')) {
      // not under the cursor: the new ranks show when the pointer leaves the board (or on asking)
      S.pending = ready;
      board.el.addEventListener('pointerleave', () => { if (S.pending === ready) settle(ready); }, {once: true});
      renderHand();
    } else {
      settle(ready);
    }
  } catch (e) {
    if (e.name === 'AbortError') return;
    if (adviceCtrl === ctrl && e.errors) showErrors(e.errors, 'The placement advisor could not rank this tile');
  }
}

function rankColour(pos, n) {
  // best green, then yellow, then orange
  const stops = [[26, 152, 80], [145, 207, 96], [254, 224, 139], [252, 141, 89]];
  const x = n <= 1 ? 0 : pos / (n - 1);
  const f = x * (stops.length - 1);
  const k = Math.min(stops.length - 2, Math.floor(f));
  const c = stops[k].map((v, j) => Math.round(v + (stops[k + 1][j] - v) * (f - k)));
  return `rgb(${c.join(',')})`;
}

function adviceOverlay() {
  if (!S.hand || !S.advice) return null;
  const rot = S.hand.rot;
  const here = S.advice.placements.filter((p) => p.rot === rot);
  const out = {};
  here.forEach((p, n) => {
    const parts = [`rank ${p.rank} of ${S.advice.placements.length} placements`];
    let credits = '';
    if (p.credits !== undefined && p.credits !== null) {
      credits = `${p.credits >= 0 ? '+' : ''}${p.credits.toFixed(2)} credits (95%: ${p.credits_ci[0].toFixed(2)} to ${p.credits_ci[1].toFixed(2)})`;
      parts.push(credits);
    }
    parts.push(`score ${p.score.toFixed(2)}`, `exposed ${p.exposed >= 0 ? '+' : ''}${p.exposed}`);
    if (p.shields.length) parts.push(`shields ${p.shields.join(', ')}`);
    if (p.exposes.length) parts.push(`exposes ${p.exposes.join(', ')}`);
    out[p.i] = {legal: true, rank: p.rank, of: S.advice.placements.length, colour: rankColour(n, here.length),
      tip: parts.join(' · '), credits, by: S.advice.credits ? 'credits' : 'score'};
  });
  for (const p of S.advice.placements) {
    if (out[p.i]) continue;
    const rots = S.advice.placements.filter((q) => q.i === p.i).map((q) => `${q.rot}°`);
    out[p.i] = {legal: false, other: rots.join(' or '), tip: `legal with the tile turned ${rots.join(' or ')}`};
  }
  return out;
}

// -- rendering -------------------------------------------------------------------------------------
function render() {
  if (!S.analysis) return;
  if (S.selected !== null && !tileAt(S.selected)) S.selected = null;  // a repair or an undo took it away
  $('#ship-name').value = S.doc.name || '';
  $('#file-path').textContent = S.path || 'not saved yet';
  $('#dirty').hidden = !S.dirty;
  $('#btn-undo').disabled = !S.undo.length;
  $('#btn-redo').disabled = !S.redo.length;
  renderStatus();
  renderBoard();
  renderHand();
  renderPalette();
  renderAside();
  renderCheck($('#pane-check'), ctx);
  renderTile($('#pane-tile'), ctx);
  renderStats($('#pane-stats'), ctx);
  if (fly) fly.shipChanged(S.analysis.view.board);
}

function renderStatus() {
  const a = S.analysis;
  const c = a.check;
  const b = a.view.board;
  const errors = c.violations.filter((v) => v.severity === 'error').length;
  $('#status').innerHTML = `<span class="chip ${c.legal ? 'ok' : 'bad'}" id="verdict">${c.legal ? 'legal' : 'illegal'}` +
    `${errors ? ` · ${errors} rule break${errors === 1 ? '' : 's'}` : ''}</span>` +
    `<span class="chip">${c.exposed_connectors} exposed connector${c.exposed_connectors === 1 ? '' : 's'}</span>` +
    `<span class="chip">class ${esc(b.name)} · edition ${edition()}</span><span class="chip">${esc(a.tiles)}</span>` +
    (b.verified ? '' : '<span class="chip warn" title="geometry from secondary sources">provisional board</span>') +
    (b.features.length ? `<span class="chip">${esc(b.features.join(' · '))}</span>` : '') +
    `<span class="chip muted" title="server time of the last answer">${a.ms} ms</span>`;
}

function renderBoard() {
  const heat = S.heat ? {tiles: S.heat.byIndex, top: S.heat.top, what: S.heat.label} : null;
  board.render(S.analysis.view, {selected: S.selected, marked: S.marked, hand: S.hand, advice: adviceOverlay(),
    heat, moving: S.hand && S.hand.from === 'move' ? S.hand.origin : null});
  const lg = $('#overlay-legend');
  if (S.heat) {
    lg.hidden = false;
    lg.innerHTML = `<span class="heat-scale" aria-hidden="true"></span> ${esc(S.heat.what)} ` +
      '<button type="button" class="link" id="heat-off">hide</button>' + heatList();
    lg.querySelector('#heat-off').addEventListener('click', () => { S.heat = null; renderBoard(); });
    lg.querySelector('details')?.addEventListener('toggle', (e) => { S.heat.listOpen = e.target.open; });
    lg.querySelectorAll('.heat-row').forEach((b) => b.addEventListener('click', () => board.setFocus(Number(b.dataset.i))));
  } else {
    lg.hidden = true;
  }
}

// the heat map in words: which tile is which, most at risk first (a click goes to its square)
function heatList() {
  const rows = Object.entries(S.heat.byIndex).map(([i, p]) => ({i: Number(i), p})).filter((r) => r.p > 0 && tileAt(r.i))
    .sort((a, b) => b.p - a.p || a.i - b.i);
  if (!rows.length) return ' <span class="muted">· no tile at risk</span>';
  const items = rows.map((r) => {
    const t = tileAt(r.i);
    return `<li><button type="button" class="link heat-row" data-i="${r.i}">${esc(squareAt(r.i).label)}</button> ` +
      `${esc(kindLabel(t.kind))}${t.id ? ` <span class="muted">${esc(t.id)}</span>` : ''}: <strong>${pct(r.p)}</strong></li>`;
  }).join('');
  return `<details class="heat-list"${S.heat.listOpen === false ? '' : ' open'}><summary>Which tile is which: ` +
    `${rows.length} tile${rows.length === 1 ? '' : 's'} at risk, most first</summary><ol>${items}</ol></details>`;
}

function renderHand() {
  const el = $('#hand');
  if (!S.hand) {
    el.innerHTML = '<p class="muted">No tile in hand: pick one from the tiles, or select a tile on the board.</p>';
    return;
  }
  const t = turned(turnedOf(S.hand.entry), S.hand.rot);
  const adv = S.advice;
  let advice = '<span class="muted small">ranking the squares…</span>';
  let best = null;
  let ranking = '';
  if (adv) {
    const here = adv.placements.filter((p) => p.rot === S.hand.rot).length;
    advice = adv.placements.length
      ? `<span class="small">${here} legal square${here === 1 ? '' : 's'} at this turn (${adv.placements.length} placements in all)` +
        ` · <span title="${esc(adv.ranking || '')}">${adv.credits ? 'ranked by credits' : 'ranked by score'} + look-ahead</span>` +
        ` · ${esc(adv.reason)}</span>`
      : `<span class="small">${esc(adv.reason)}</span>`;
    if (adv.placements.length) {
      const following = !adv.credits && ctx.creditsOn && !S.pending ? ' · the ranking by credits follows' : '';
      ranking = `<p class="ranking" id="ranking"><strong>Ranks ${adv.credits ? 'by expected credits' : 'by score'}</strong>` +
        `<span class="small muted"> (${adv.credits ? 'whole rounds flown for every placement, filled numbers' : 'quick, outlined numbers'})` +
        `${following}</span>${S.pending ? ' <span class="small">· the ranking by credits is ready: it shows when the pointer ' +
        'leaves the board</span> <button type="button" class="link" id="ranking-show">show it now</button>' : ''}` +
        ' <span class="small muted">· N jumps to the best squares</span></p>';
    }
    best = adv.placements[0] || null;
  }
  const bestLine = best ? `<p class="small">Best: square ${esc(squareAt(best.i).label)}${best.rot ? `, turned ${best.rot}°` : ''}` +
    `${best.credits !== undefined && best.credits !== null ? ` (${best.credits >= 0 ? '+' : ''}${best.credits.toFixed(2)} credits)` : ''}` +
    (best.rot !== S.hand.rot ? ' <button type="button" class="link" id="hand-best">turn it so</button>' : '') + '</p>' : '';
  el.innerHTML = `<div class="hand-tile">${tileSVG(t, {px: 72})}</div><div class="hand-info">` +
    `<p><strong>In hand:</strong> ${esc(handName())}${S.hand.rot ? `, turned ${S.hand.rot}°` : ''}</p>` +
    '<div class="row-buttons"><button type="button" id="hand-rotl">⟲</button>' +
    '<button type="button" id="hand-rot" title="R">⟳ Turn (R)</button>' +
    '<button type="button" id="hand-aside">Set aside</button>' +
    '<button type="button" id="hand-drop" title="Esc">Put back</button></div>' +
    `${ranking}<p class="advice-line">${advice}</p>${bestLine}` +
    `<label class="check small"><input type="checkbox" id="advice-credits"${ctx.creditsOn ? ' checked' : ''}> rank by ` +
    'credits (flies whole rounds)</label> <progress id="advice-progress" max="1" hidden></progress>' +
    ' <span id="advice-stage" class="small muted"></span></div>';
  el.querySelector('#hand-rot').addEventListener('click', () => rotateHand(90));
  el.querySelector('#hand-rotl').addEventListener('click', () => rotateHand(-90));
  el.querySelector('#hand-aside').addEventListener('click', () => handAside());
  el.querySelector('#hand-drop').addEventListener('click', () => dropHand());
  el.querySelector('#hand-best')?.addEventListener('click', () => rotateHand(best.rot - S.hand.rot));
  el.querySelector('#ranking-show')?.addEventListener('click', () => settle(S.pending));
  el.querySelector('#advice-credits').addEventListener('change', (e) => { ctx.creditsOn = e.target.checked; requestAdvice(); });
  renderHandProgress();
}

function renderHandProgress() {
  const p = $('#advice-progress');
  if (!p) return;
  if (S.advice && S.advice.progress !== null && S.advice.progress !== undefined) {
    p.hidden = false;
    p.value = S.advice.progress;
    p.title = S.advice.stage || '';
    p.setAttribute('aria-label', `ranking by credits: ${S.advice.stage || ''}`);
    $('#advice-stage').textContent = S.advice.stage && S.advice.stage !== 'flying placements' ? S.advice.stage : '';
  } else {
    p.hidden = true;
    $('#advice-stage').textContent = '';
  }
}

function usedIds() {
  const out = new Set();
  for (const t of S.doc ? S.doc.tile || [] : []) if (t.id) out.add(t.id);
  for (const t of S.doc ? S.doc.aside || [] : []) if (t.id) out.add(t.id);
  return out;
}

let paletteFilter = {kind: '', sides: null};

// the Kind filter offers the kinds of the edition's catalogue only, in the session's order
function kindFilter() {
  const present = new Set([...S.catalogue.values()].map((t) => t.kind));
  const kinds = Object.keys(S.session.kinds).filter((k) => present.has(k));
  if (!present.has(paletteFilter.kind)) paletteFilter.kind = '';
  $('#kind-filter').innerHTML = `<option value="">all ${kinds.length} kinds</option>` +
    kinds.map((k) => `<option value="${k}"${k === paletteFilter.kind ? ' selected' : ''}>${esc(kindLabel(k))}</option>`).join('');
}

async function renderPalette() {
  const el = $('#palette');
  if (!S.catalogue.size) return;
  const used = $('#hide-used').checked ? usedIds() : new Set();
  let rows = [...S.catalogue.values()];
  if (paletteFilter.kind) rows = rows.filter((t) => t.kind === paletteFilter.kind);
  if (paletteFilter.sides) rows = rows.filter((t) => paletteFilter.sides.has(t.id)).map((t) => ({...t, rot: paletteFilter.sides.get(t.id)}));
  rows = rows.filter((t) => !used.has(t.id));
  const taken = S.hand && S.hand.from === 'palette' ? S.hand.entry.id : null;
  drawGrid(el, 58, (px) => paletteTiles(el, rows, taken, px));
}

function paletteTiles(el, rows, taken, px) {
  el.innerHTML = rows.map((t) => {
    const d = turned(t, t.rot || 0);
    const name = `${kindLabel(t.kind)} ${t.id}${t.rot ? ` turned ${t.rot}°` : ''}, sides ${t.sides}`;
    const inHand = t.id === taken;
    return `<div role="listitem"><button type="button" class="pal${inHand ? ' taken' : ''}" data-id="${esc(t.id)}" ` +
      `data-rot="${t.rot || 0}" aria-pressed="${inHand}" aria-label="take ${esc(name)}${inHand ? ' (in hand)' : ''}" ` +
      `title="${esc(name)}${inHand ? ' (in hand)' : ''}">${tileSVG(d, {px})}<span class="pal-id">${esc(t.id.split(':')[1])}</span>` +
      '</button></div>';
  }).join('') || '<p class="muted small">no tile matches</p>';
  el.querySelectorAll('.pal').forEach((b, n) => {
    b.tabIndex = n === 0 ? 0 : -1;  // one tab stop; the arrows move within the tiles
    b.addEventListener('click', () => takeInHand({entry: {id: b.dataset.id}, rot: Number(b.dataset.rot), from: 'palette'}));
  });
}

// how wide a tile of a grid of tile buttons is drawn (auto-fill columns at least `min` px, gap 4,
// padding 2), for its labels
function gridTilePx(el, min) {
  const w = el.clientWidth || 260;
  const cols = Math.max(1, Math.floor((w + 4) / (min + 4)));
  return (w - 4 * (cols - 1)) / cols - 4;
}

// draw a grid of tile buttons with labels sized for how wide its tiles come out: guessed, then
// measured (a phone's grid, a scroll bar) and drawn again when the guess was off
function drawGrid(el, min, draw) {
  let px = gridTilePx(el, min);
  for (let k = 0; k < 2; k++) {
    draw(px);
    const svg = el.querySelector('.pal svg');
    const got = svg ? svg.getBoundingClientRect().width : 0;
    if (!got || Math.abs(got - px) < 0.5) return;
    px = got;
  }
}

// arrow keys within a grid of tile buttons (one tab stop for the whole grid)
function gridKeys(e) {
  const buttons = [...e.currentTarget.querySelectorAll('.pal')];
  const k = buttons.indexOf(document.activeElement);
  if (k < 0) return;
  const cols = Math.max(1, Math.round(e.currentTarget.clientWidth / buttons[0].getBoundingClientRect().width));
  const step = {ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols, Home: -k, End: buttons.length - 1 - k}[e.key];
  if (step === undefined) return;
  e.preventDefault();
  const next = buttons[Math.max(0, Math.min(buttons.length - 1, k + step))];
  buttons.forEach((b) => { b.tabIndex = -1; });
  next.tabIndex = 0;
  next.focus();
}

function renderAside() {
  const list = (S.doc && S.doc.aside) || [];
  $('#aside-count').textContent = list.length ? `(${list.length})` : '';
  drawGrid($('#aside'), 48, (px) => asideTiles(list, px));
}

function asideTiles(list, px) {
  $('#aside').innerHTML = list.map((e, n) => {
    const t = turned(turnedOf(e), 0);
    const name = `${kindLabel(t.kind)}${e.id ? ` ${e.id}` : ''}`;
    return `<div role="listitem"><button type="button" class="pal" data-n="${n}" aria-label="take back ${esc(name)} (set aside)" ` +
      `title="${esc(name)}">${tileSVG(t, {px})}</button></div>`;
  }).join('') || '<p class="muted small">none: drag a tile here, or use Set aside</p>';
  $('#aside').querySelectorAll('.pal').forEach((b, k) => {
    b.tabIndex = k === 0 ? 0 : -1;
    b.addEventListener('click', () => {
      const n = Number(b.dataset.n);
      takeInHand({entry: clone(S.doc.aside[n]), rot: 0, from: 'aside', index: n});
    });
  });
}

function selectTab(name) {
  for (const t of ['check', 'tile', 'stats', 'fly']) {
    const on = t === name;
    $(`#tab-${t}`).setAttribute('aria-selected', String(on));
    $(`#tab-${t}`).tabIndex = on ? 0 : -1;
    $(`#pane-${t}`).hidden = !on;
  }
}

function flash(text) { say(text); showErrors([text], 'Not there'); setTimeout(hideErrors, 2500); }

function say(text) {
  let live = $('#live');
  if (!live) {
    live = document.createElement('div');
    live.id = 'live';
    live.className = 'sr-only';
    live.setAttribute('aria-live', 'polite');
    document.body.appendChild(live);
  }
  live.textContent = text;
}

// -- heat maps ---------------------------------------------------------------------------------------
function showHeat(tilesByAt, what, label) {
  const byIndex = {};
  let top = 0;
  for (const sq of S.analysis.view.squares) {
    const p = tilesByAt[key(sq.at)];
    if (p !== undefined) { byIndex[sq.i] = p; top = Math.max(top, p); }
  }
  S.heat = {byIndex, top, what, label};
  renderBoard();
}

// -- dialogs ---------------------------------------------------------------------------------------
async function openStart() {
  const dlg = $('#dlg-start');
  const list = $('#file-list');
  list.innerHTML = '<li class="muted">looking for ship files…</li>';
  if (!dlg.open) dlg.showModal();
  try {
    const res = await api.get('/api/files');
    $('#root-path').textContent = `in ${res.root}`;
    list.innerHTML = res.files.map((f) => `<li><button type="button" class="link file" data-path="${esc(f)}">${esc(f)}</button></li>`)
      .join('') || '<li class="muted">no ship files here</li>';
    list.querySelectorAll('.file').forEach((b) => b.addEventListener('click', async () => {
      if (!confirmDiscard()) return;
      try {
        const r = await api.post('/api/open', {path: b.dataset.path});
        dlg.close();
        await setShip(r, r.path);
      } catch (e) { showErrors(e.errors || [String(e)], `Cannot open ${b.dataset.path}`); dlg.close(); }
    }));
  } catch (e) {
    list.innerHTML = `<li class="errors">${esc((e.errors || [String(e)]).join(' '))}</li>`;
  }
}

function confirmDiscard() {
  return !S.dirty || window.confirm('Discard the changes not saved?');
}

async function newShip() {
  if (!confirmDiscard()) return;
  const body = {class: $('#new-class').value, edition: $('#new-edition').value};
  const name = $('#new-name').value.trim();
  if (name) body.name = name;
  try {
    const r = await api.post('/api/new', body);
    $('#dlg-start').close();
    await setShip(r, null);
    if (S.session.named && !S.session.named.exists) S.target = S.session.named.path;
  } catch (e) { showErrors(e.errors || [String(e)]); }
}

async function askReplace(why) {
  $('#confirm-msg').textContent = why;
  const dlg = $('#dlg-confirm');
  dlg.returnValue = '';
  dlg.showModal();
  return new Promise((resolve) => dlg.addEventListener('close', () => resolve(dlg.returnValue === 'ok'), {once: true}));
}

async function save(to, overwrite = false) {
  try {
    if (!overwrite) {
      // ask before replacing a file the workbench did not open (or one changed on disk since)
      const c = await api.post('/api/save/check', {to});
      if (c.confirm) {
        if (!await askReplace(`${c.path}: ${c.confirm}. Replace it?`)) return false;
        overwrite = true;
      }
    }
    const r = await api.post('/api/save', {...shipBody(), to, overwrite});
    S.path = r.path;
    S.dirty = false;
    hideErrors();
    render();
    say(`saved ${r.path}`);
    flashStatus(`saved ${r.path}`);
    return true;
  } catch (e) {
    if (e.status === 409 && e.body.confirm && await askReplace(e.errors.join(' '))) return save(to, true);
    if (e.status !== 409) showErrors(e.errors || [String(e)], 'Not saved');
    return false;
  }
}

function flashStatus(text) {
  const c = document.createElement('span');
  c.className = 'chip ok flash';
  c.textContent = text;
  $('#status').appendChild(c);
  setTimeout(() => c.remove(), 3000);
}

function saveAs() {
  const dlg = $('#dlg-save');
  $('#save-root').textContent = S.session.root;
  $('#save-path').value = S.path || S.target || `${(S.doc.name || 'my-ship').toLowerCase().replace(/[^a-z0-9]+/g, '-')}.toml`;
  $('#save-msg').textContent = '';
  dlg.showModal();
}

async function download() {
  try {
    const r = await api.post('/api/toml', shipBody());
    const blob = new Blob([r.text], {type: 'application/toml'});
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = r.filename;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (e) { showErrors(e.errors || [String(e)]); }
}

async function report() {
  const body = shipBody();
  const el = $('#banner');
  el.hidden = false;
  el.className = 'banner info';
  el.innerHTML = '<strong>Writing the strategy report…</strong> <span id="rep-stage"></span> ' +
    '<button type="button" id="rep-stop">Cancel</button>';
  const ctrl = new AbortController();
  el.querySelector('#rep-stop').addEventListener('click', () => ctrl.abort());
  try {
    const last = await api.stream('/api/report', body, (ev) => {
      if (ev.type === 'progress') el.querySelector('#rep-stage').textContent = ev.stage;
    }, {signal: ctrl.signal});
    if (last && last.type === 'result') {
      const href = `${last.result.href}?token=${encodeURIComponent(api.TOKEN)}`;
      el.innerHTML = `<strong>Report written</strong> to ${esc(last.result.out)} · ` +
        `<a href="${esc(href)}" target="_blank" rel="noopener">open it</a> <button type="button" class="x" aria-label="dismiss">×</button>`;
      el.querySelector('.x').addEventListener('click', () => { el.hidden = true; el.className = 'banner'; });
    } else {
      el.hidden = true;
    }
  } catch (e) {
    el.className = 'banner';
    if (e.name === 'AbortError') { el.hidden = true; return; }
    showErrors(e.errors || [String(e)], 'No report');
  }
}

async function explain(code) {
  const dlg = $('#dlg-rule');
  $('#dlg-rule-title').textContent = `Rule ${code}`;
  $('#rule-body').innerHTML = '<p class="muted">…</p>';
  dlg.showModal();
  const r = await api.get(`/api/rules/${encodeURIComponent(code)}`);
  $('#dlg-rule-title').textContent = `${r.code} ${r.name} (${r.severity})`;
  const example = (which) => {
    const ex = r[which];
    const msgs = ex.check.violations.map((v) => `<li>${esc(v.code)}: ${esc(v.message)}</li>`).join('');
    return `<figure class="rule-ex"><figcaption>${which === 'bad' ? 'Bad' : 'Good'} ship</figcaption>` +
      `<div class="mini-board" data-which="${which}"></div>` +
      `<ul class="small">${msgs || '<li>check reports nothing</li>'}</ul>` +
      `<details><summary>its ship file</summary><pre>${esc(ex.toml)}</pre></details></figure>`;
  };
  $('#rule-body').innerHTML = `<p>${esc(r.summary)}</p><p><strong>Why.</strong> ${esc(r.why)}</p>` +
    (r.fixable ? '' : '<p class="small">The minimal repair does not mend it by removing components.</p>') +
    (r.source ? `<p class="small muted">Source: ${esc(r.source)}</p>` : '') +
    `<div class="rule-examples">${example('bad')}${example('good')}</div>`;
  for (const which of ['bad', 'good']) {
    const host = $(`#rule-body .mini-board[data-which="${which}"]`);
    const mini = new Board(host, {activate() {}, drop() {}, aside() {}, fixed: true, sq: 44});
    mini.render(r[which].view, {});
    host.classList.add('board', 'mini');
    host.inert = true;  // a picture: not part of the page's controls
  }
}

// -- wiring ----------------------------------------------------------------------------------------
const ctx = {
  S, shipBody, edition, creditsOn: true,
  applyFix, explain, showHeat, loadDesigned, showInfo,
  mark(cells) {
    const keys = new Set(cells.map(key));
    S.marked = new Set(S.analysis.view.squares.filter((s) => keys.has(key(s.at))).map((s) => s.i));
    renderBoard();
  },
  tileAction(act, i) {
    if (act === 'rotl') rotate(i, -90);
    else if (act === 'rotr') rotate(i, 90);
    else if (act === 'move') pickUp(i);
    else if (act === 'aside') setAside(i);
    else if (act === 'remove') removeTile(i);
  },
  setField,
};

function keys(e) {
  const t = e.target;
  const typing = t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA');
  if ((e.ctrlKey || e.metaKey) && !e.altKey) {
    const k = e.key.toLowerCase();
    if (k === 'z' && !e.shiftKey) { e.preventDefault(); undoRedo(S.undo, S.redo); }
    else if (k === 'y' || (k === 'z' && e.shiftKey)) { e.preventDefault(); undoRedo(S.redo, S.undo); }
    else if (k === 's') { e.preventDefault(); S.path ? save(S.path) : saveAs(); }
    return;
  }
  if (typing || e.altKey || document.querySelector('dialog[open]')) return;
  if (e.key === 'r' || e.key === 'R') {
    const by = e.shiftKey ? -90 : 90;
    if (S.hand) rotateHand(by); else if (S.selected !== null) rotate(S.selected, by);
    e.preventDefault();
  } else if (e.key === 'Escape') {
    if (S.hand) dropHand(); else { S.selected = null; S.marked = null; S.heat = null; render(); }
  } else if ((e.key === 'Delete' || e.key === 'Backspace') && S.selected !== null) {
    e.preventDefault();
    removeTile(S.selected);
  } else if ((e.key === 'm' || e.key === 'M') && S.selected !== null) {
    pickUp(S.selected);
  } else if ((e.key === 'n' || e.key === 'N') && S.hand) {
    e.preventDefault();
    jumpRank(e.shiftKey ? -1 : 1);
  }
}

function wire() {
  board = new Board($('#board'), {activate, drop: moveTile, aside: setAside, canMovePilot: false});
  document.addEventListener('keydown', keys);
  for (const t of ['check', 'tile', 'stats', 'fly']) $(`#tab-${t}`).addEventListener('click', () => selectTab(t));
  $('.tabs').addEventListener('keydown', (e) => {
    const order = ['check', 'tile', 'stats', 'fly'];
    const cur = order.findIndex((t) => $(`#tab-${t}`).getAttribute('aria-selected') === 'true');
    const d = {ArrowRight: 1, ArrowLeft: -1}[e.key];
    if (!d) return;
    const next = order[(cur + d + order.length) % order.length];
    selectTab(next);
    $(`#tab-${next}`).focus();
  });
  $('#btn-start').addEventListener('click', openStart);
  $('#btn-save').addEventListener('click', () => (S.path ? save(S.path) : saveAs()));
  $('#btn-save-as').addEventListener('click', saveAs);
  $('#btn-download').addEventListener('click', download);
  $('#btn-report').addEventListener('click', report);
  $('#btn-design').addEventListener('click', () => designer && designer.open());
  $('#btn-undo').addEventListener('click', () => undoRedo(S.undo, S.redo));
  $('#btn-redo').addEventListener('click', () => undoRedo(S.redo, S.undo));
  $('#new-go').addEventListener('click', newShip);
  // after the start dialog the keyboard is on the board (its start square), not the page's body
  $('#dlg-start').addEventListener('close', () => setTimeout(() => board.focusBoard(), 0));
  $('#save-go').addEventListener('click', async () => {
    const to = $('#save-path').value.trim();
    $('#dlg-save').close();
    if (to) await save(to);
  });
  $('#ship-name').addEventListener('change', (e) => {
    const v = e.target.value.trim();
    edit((doc) => { if (v) doc.name = v; else delete doc.name; }, {keepHeat: true});
  });
  $('#kind-filter').addEventListener('change', (e) => { paletteFilter.kind = e.target.value; renderPalette(); });
  $('#palette').addEventListener('keydown', gridKeys);
  $('#aside').addEventListener('keydown', gridKeys);
  $('#skip-board').addEventListener('click', (e) => { e.preventDefault(); board.focusBoard(); });
  $('#hide-used').addEventListener('change', () => renderPalette());
  const sidesSearch = async () => {
    const v = $('#sides-filter').value.trim();
    if (!/^[0-3]{4}$/.test(v)) { paletteFilter.sides = null; renderPalette(); return; }
    const any = $('#any-rotation').checked;
    const res = await api.get(`/api/tiles?edition=${edition()}&sides=${v}&any_rotation=${any ? 1 : 0}`);
    paletteFilter.sides = new Map(res.tiles.map((t) => [t.id, t.rot]));
    renderPalette();
  };
  $('#sides-filter').addEventListener('input', sidesSearch);
  $('#any-rotation').addEventListener('change', sidesSearch);
  $('#custom-kind').addEventListener('change', customAttrs);
  $('#custom-take').addEventListener('click', () => {
    const kind = $('#custom-kind').value;
    const sides = $('#custom-sides').value.trim();
    if (!/^[0-3]{4}$/.test(sides)) { flash('sides: 4 digits 0-3, N E S W'); return; }
    const entry = {kind, sides};
    document.querySelectorAll('#custom-attrs select').forEach((s) => {
      entry[s.dataset.attr] = /^\d+$/.test(s.value) ? Number(s.value) : s.value;
    });
    takeInHand({entry, rot: 0, from: 'custom'});
  });
  api.cancelOnClose();
}

function customAttrs() {
  const info = S.session.kinds[$('#custom-kind').value];
  $('#custom-attrs').innerHTML = Object.entries(info.attrs).filter(([, v]) => v).map(([a, vals]) =>
    `<label>${a} <select data-attr="${a}">${vals.map((v) => `<option>${v}</option>`).join('')}</select></label>`).join('');
}

async function main() {
  wire();
  try {
    S.session = await api.get('/api/session');
  } catch (e) {
    showErrors(e.errors || [String(e)], 'The workbench cannot start');
    return;
  }
  setup(S.session);
  fly = new Fly($('#pane-fly'), ctx);
  designer = new Design($('#dlg-design'), ctx);
  const kinds = Object.keys(S.session.kinds);
  $('#custom-kind').innerHTML = kinds.map((k) => `<option value="${k}">${esc(k)}</option>`).join('');
  customAttrs();
  $('#new-class').innerHTML = S.session.classes.map((c) => `<option>${c}</option>`).join('');
  $('#new-edition').innerHTML = S.session.editions.map((e) => `<option>${e}</option>`).join('');
  const named = S.session.named;
  if (named && named.exists) {
    try {
      const r = await api.post('/api/open', {path: named.path});
      await setShip(r, r.path);
    } catch (e) { showErrors(e.errors || [String(e)], `Cannot open ${named.path}`); }
  } else {
    const r = await api.post('/api/new', {class: 'I'});
    await setShip(r, null);
    if (named) S.target = named.path;
    openStart();
  }
  document.body.classList.add('ready');
}

main();
