// The study panes: Check (rule breaks, the minimal repair), Tile (the selected tile), Stats.

import {describe} from './board.js';
import {esc, kindLabel, pct, tileSVG} from './draw.js';

const SIDES = ['front', 'right', 'rear', 'left'];
const el = (html) => {
  const t = document.createElement('template');
  t.innerHTML = html.trim();
  return t.content.firstElementChild;
};

// -- Check ----------------------------------------------------------------------------------------
export function renderCheck(pane, ctx) {
  const a = ctx.S.analysis;
  if (!a) { pane.replaceChildren(); return; }
  const c = a.check;
  const errors = c.violations.filter((v) => v.severity === 'error');
  const warns = c.violations.filter((v) => v.severity !== 'error');
  const parts = [];
  parts.push(`<p class="verdict ${c.legal ? 'ok' : 'bad'}">${c.legal ? 'Legal' : 'Illegal'}` +
    `<span class="muted"> · ${errors.length} rule break${errors.length === 1 ? '' : 's'}, ${warns.length} warning${warns.length === 1 ? '' : 's'}` +
    ` · ${c.exposed_connectors} exposed connector${c.exposed_connectors === 1 ? '' : 's'}</span></p>`);
  const side = SIDES.map((s) => `${s} ${c.exposed_by_side[s]}`).join(' · ');
  parts.push(`<p class="small muted">exposed by side: ${side}</p>`);
  if (ctx.S.fix === 'pending') {
    parts.push('<div class="fixbox"><p class="muted">finding the minimal repair…</p></div>');
  } else if (ctx.S.fix && !ctx.S.fix.legal_before) {
    const f = ctx.S.fix;
    if (f.fixable && f.removed.length) {
      const why = f.why.map((w) => `${w.at.join ? w.at.join(',') : `col ${w.at.col}, row ${w.at.row}`}` +
        `${w.codes.length ? ` (${w.codes.join(', ')})` : ' (falls off)'}`).join('; ');
      parts.push(`<div class="fixbox"><p><strong>Minimal repair:</strong> lose ${f.lost} component${f.lost === 1 ? '' : 's'}` +
        ` — ${esc(why)}.</p><button type="button" class="primary" id="apply-fix">Apply the repair</button></div>`);
    } else if (!f.fixable) {
      parts.push(`<div class="fixbox"><p><strong>No removal mends it:</strong> ${esc(f.reason)}</p></div>`);
    } else if (f.crew_violations.length) {
      parts.push('<div class="fixbox"><p>Crew errors are mended by placing the crew differently.</p></div>');
    }
  }
  if (c.violations.length) {
    parts.push('<ul class="violations">' + c.violations.map((v, n) => {
      const cells = v.cells.map((x) => Array.isArray(x) ? x.join(',') : `col ${x.col}, row ${x.row}`).join(' ');
      return `<li class="${v.severity}"><button type="button" class="viol" data-n="${n}" title="show its squares">` +
        `<span class="code">${esc(v.code)}</span> <span class="name">${esc(v.name)}</span>` +
        `<span class="cells">${esc(cells)}</span></button>` +
        `<p class="message">${esc(v.message)}</p>` +
        `<button type="button" class="link explain" data-code="${esc(v.code)}">Explain ${esc(v.code)}</button></li>`;
    }).join('') + '</ul>');
  } else {
    parts.push('<p class="muted">No rule is broken.</p>');
  }
  for (const note of c.notes || []) parts.push(`<p class="note">note: ${esc(note)}</p>`);
  pane.innerHTML = parts.join('');
  pane.querySelector('#apply-fix')?.addEventListener('click', () => ctx.applyFix());
  pane.querySelectorAll('.viol').forEach((b) => b.addEventListener('click', () => {
    const v = c.violations[Number(b.dataset.n)];
    ctx.mark(v.cells);
  }));
  pane.querySelectorAll('.explain').forEach((b) => b.addEventListener('click', () => ctx.explain(b.dataset.code)));
}

// -- Tile -----------------------------------------------------------------------------------------
export function renderTile(pane, ctx) {
  const S = ctx.S;
  const a = S.analysis;
  const t = a && S.selected !== null ? a.view.tiles.find((x) => x.i === S.selected) : null;
  if (!t) {
    pane.innerHTML = '<p class="muted">Select a tile on the board (click it, or Enter on its square) to turn it, ' +
      'set its crew, charges and goods, move it, set it aside or remove it.</p>';
    return;
  }
  const sq = a.view.squares[t.i];
  const info = S.session.kinds[t.kind];
  const rows = [];
  rows.push(`<div class="tile-head"><div class="big">${tileSVG(t, {px: 96})}</div><div><h3>${esc(kindLabel(t.kind))}` +
    `${t.id ? ` <span class="muted">${esc(t.id)}</span>` : ''}</h3><p class="small">square ${esc(sq.label)}` +
    `${t.rot ? `, turned ${t.rot}°` : ''}</p><p class="small muted">${esc(info.description)}</p></div></div>`);
  if (t.implied) {
    rows.push('<p class="small">The pilot cabin stands on the start square from the start; it is not written in the file.</p>');
  }
  rows.push('<div class="row-buttons">' +
    '<button type="button" data-act="rotl" title="turn left">⟲ Turn left</button>' +
    '<button type="button" data-act="rotr" title="turn right (R)">⟳ Turn right</button>' +
    (t.implied ? '' : '<button type="button" data-act="move" title="pick it up, then choose a square (M)">Move</button>' +
      '<button type="button" data-act="aside">Set aside</button>' +
      '<button type="button" data-act="remove" class="danger" title="Delete">Remove</button>') + '</div>');
  if (info.crew) {
    const opts = ['humans', 'purple', 'orange', 'cyan', 'empty'];
    const cur = t.crew || 'humans';
    rows.push(`<label>Crew <select data-field="crew">${opts.map((o) =>
      `<option value="${o}"${o === cur ? ' selected' : ''}>${o === 'humans' ? `humans (${info.places})` :
        o === 'empty' ? 'empty' : `${o} alien`}</option>`).join('')}</select></label>`);
  }
  if (info.charge) {
    const cap = t.attrs.cells ?? t.attrs.slots ?? 0;
    const cur = t.charge ?? (cap - (t.goods || []).length);
    rows.push(`<label>Battery charges <input type="number" min="0" max="${cap}" value="${cur}" data-field="charge">` +
      ` <span class="muted">of ${cap}</span></label>`);
  }
  if (info.goods) {
    const slots = t.attrs.slots ?? 0;
    const goods = t.goods || [];
    // red goods go only in special slots: an ordinary hold does not offer them
    const redRoom = t.kind === 'special_cargo' ? slots : t.kind === 'mixed_cargo' ? (t.attrs.special_slots ?? 0) : 0;
    const opts = ['', ...(redRoom > 0 ? ['red'] : []), 'yellow', 'green', 'blue'];
    const sel = [];
    for (let k = 0; k < slots; k++) {
      sel.push(`<select data-good="${k}" aria-label="goods slot ${k + 1}">${opts.map((o) =>
        `<option value="${o}"${(goods[k] || '') === o ? ' selected' : ''}>${o || '—'}</option>`).join('')}</select>`);
    }
    rows.push(`<fieldset class="goods"><legend>Goods (${slots} slot${slots === 1 ? '' : 's'})</legend>${sel.join('')}</fieldset>`);
  }
  rows.push(`<p class="small muted">${esc(describe(t))}</p>`);
  pane.innerHTML = rows.join('');
  pane.querySelectorAll('[data-act]').forEach((b) => b.addEventListener('click', () => ctx.tileAction(b.dataset.act, t.i)));
  pane.querySelector('[data-field="crew"]')?.addEventListener('change', (e) => ctx.setField(t.i, 'crew', e.target.value));
  pane.querySelector('[data-field="charge"]')?.addEventListener('change', (e) => {
    const v = Number(e.target.value);
    if (Number.isInteger(v)) ctx.setField(t.i, 'charge', v);
  });
  pane.querySelectorAll('[data-good]').forEach((s) => s.addEventListener('change', () => {
    const goods = [...pane.querySelectorAll('[data-good]')].map((x) => x.value).filter(Boolean);
    ctx.setField(t.i, 'goods', goods);
  }));
}

// -- Stats ----------------------------------------------------------------------------------------
function power(p) {
  if (!p) return '–';
  const ladder = p.ladder.join(' → ');
  return p.min === p.max ? `${p.min}` : `${p.min} to ${p.max} <span class="muted small">(per charge: ${ladder})</span>`;
}

export function renderStats(pane, ctx) {
  const a = ctx.S.analysis;
  if (!a) { pane.replaceChildren(); return; }
  const s = a.stats;
  const crew = s.crew;
  const aliens = Object.entries(crew.aliens).filter(([, n]) => n).map(([c, n]) => `${n} ${c}`).join(', ');
  const shields = SIDES.map((d) => `${d} ${s.shields[d].shields.length ? '✓' : '–'}`).join(' · ');
  const rows = [
    ['Crew', `${crew.total} (${crew.humans} humans${aliens ? `, aliens: ${aliens}` : ''})` +
      `${crew.sleepers ? `, ${crew.sleepers} asleep` : ''}`],
    ['Engine power', power(s.engine_power)],
    ['Firepower', power(s.firepower)],
    ['Battery charges', `${s.batteries.charges} of ${s.batteries.capacity}`],
    ['Cargo slots', `${s.cargo.normal} normal, ${s.cargo.special} special` +
      `${s.cargo.goods_value ? ` · goods worth ${s.cargo.goods_value}` : ''}`],
    ['Shields', shields],
    ['Exposed connectors', `${s.exposed_connectors} (${SIDES.map((d) => `${d} ${s.exposed_by_side[d]}`).join(', ')})`],
  ];
  const table = '<table class="kv">' + rows.map(([k, v]) => `<tr><th scope="row">${k}</th><td>${v}</td></tr>`).join('') + '</table>';
  const kinds = [...new Set(s.attacks.map((x) => x.kind))];
  const attack = '<table class="attacks"><caption>Chance an attack does damage (stoppable part in brackets); ' +
    'choose one to see where it hits</caption><thead><tr><th></th>' + SIDES.map((d) => `<th scope="col">${d}</th>`).join('') +
    '</tr></thead><tbody>' + kinds.map((k) => `<tr><th scope="row">${k.replace('-', ' ')}</th>` + SIDES.map((d) => {
    const x = s.attacks.find((q) => q.kind === k && q.from === d);
    if (!x) return '<td>–</td>';
    return `<td><button type="button" class="cell" data-kind="${k}" data-from="${d}" ` +
      `aria-label="${k} from the ${d}: damage ${pct(x.p_damage)}, stoppable ${pct(x.p_stoppable)}">` +
      `${pct(x.p_damage)}<span class="muted small"> (${pct(x.p_stoppable)})</span></button></td>`;
  }).join('') + '</tr>').join('') + '</tbody></table>';
  const notes = (s.construction.notes || []).map((n) => `<p class="note">note: ${esc(n)}</p>`).join('');
  pane.innerHTML = table + attack + notes;
  pane.querySelectorAll('.cell').forEach((b) => b.addEventListener('click', () => {
    const x = s.attacks.find((q) => q.kind === b.dataset.kind && q.from === b.dataset.from);
    const tiles = {};
    for (const t of x.targets) tiles[JSON.stringify(t.at)] = t.p_hit;
    ctx.showHeat(tiles, `${x.kind.replace('-', ' ')} from the ${x.from}: chance each tile is hit first`, 'hit');
  }));
}

export {el};
