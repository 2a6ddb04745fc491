// Small SVG charts: a distribution as bars (share of runs per whole value), and stacked parts.

import {esc} from './draw.js';

// dist: {"value": share}; mean, ci: the mean and its 95 % interval; returns SVG markup.
// range: [lo, hi] of the x axis (to draw several distributions on one scale); top: the tallest share
export function histogram(dist, {mean = null, ci = null, title = '', width = 320, height = 120, unit = '', range = null,
  top = null} = {}) {
  const pts = Object.entries(dist).map(([k, v]) => [Number(k), Number(v)]).filter(([k]) => Number.isFinite(k))
    .sort((a, b) => a[0] - b[0]);
  if (!pts.length) return '';
  const lo = range ? range[0] : Math.min(pts[0][0], mean ?? Infinity);
  const hi = range ? range[1] : Math.max(pts[pts.length - 1][0], mean ?? -Infinity);
  top = top || Math.max(...pts.map(([, v]) => v));
  const padL = 6, padR = 6, padT = 14, padB = 20;
  const span = Math.max(1, hi - lo + 1);
  const bw = (width - padL - padR) / span;
  const x = (v) => padL + (v - lo) * bw;
  const y = (s) => padT + (height - padT - padB) * (1 - s / top);
  const bars = pts.map(([k, v]) => `<rect class="${k < 0 ? 'neg' : 'pos'}" x="${(x(k) + bw * 0.08).toFixed(1)}" ` +
    `y="${y(v).toFixed(1)}" width="${Math.max(1, bw * 0.84).toFixed(1)}" height="${(height - padB - y(v)).toFixed(1)}">` +
    `<title>${k} ${esc(unit)}: ${(v * 100).toFixed(1)}% of runs</title></rect>`).join('');
  let marks = '';
  if (ci) {
    marks += `<rect class="ci" x="${x(ci[0]) + bw / 2}" y="${padT}" width="${Math.max(1, (ci[1] - ci[0]) * bw)}" ` +
      `height="${height - padT - padB}"/>`;
  }
  if (mean !== null) {
    const mx = x(mean) + bw / 2;
    marks += `<line class="mean" x1="${mx}" x2="${mx}" y1="${padT - 4}" y2="${height - padB}"/>` +
      `<text class="mean-label" x="${mx + 3}" y="${padT - 4}">mean ${mean.toFixed(1)}</text>`;
  }
  const ticks = [];
  const every = Math.max(1, Math.ceil(span / Math.max(2, Math.floor(width / 36))));  // ticks 11 px apart at least
  for (let v = Math.ceil(lo / every) * every; v <= hi; v += every) {
    ticks.push(`<text class="tick" x="${x(v) + bw / 2}" y="${height - 6}">${v}</text>`);
  }
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(title)}">` +
    `<title>${esc(title)}</title><line class="axis" x1="${padL}" x2="${width - padR}" y1="${height - padB}" ` +
    `y2="${height - padB}"/>${marks}${bars}${ticks.join('')}</svg>`;
}

// Parts of a whole as one horizontal stacked bar per row: rows [{name, parts: {key: value}}].
// the x range and the tallest share over several distributions
export function scale(dists) {
  const keys = dists.flatMap((d) => Object.keys(d).map(Number)).filter(Number.isFinite);
  const shares = dists.flatMap((d) => Object.values(d).map(Number));
  return {range: [Math.min(...keys), Math.max(...keys)], top: Math.max(...shares)};
}

export function stacked(rows, keys, colours, {width = 320} = {}) {
  const rowH = 22, labelW = 96, pad = 4;
  const lo = Math.min(0, ...rows.map((r) => keys.reduce((a, k) => a + Math.min(0, r.parts[k] || 0), 0)));
  const hi = Math.max(1, ...rows.map((r) => keys.reduce((a, k) => a + Math.max(0, r.parts[k] || 0), 0)));
  const scale = (width - labelW - pad * 2) / (hi - lo);
  const zero = labelW + pad + (-lo) * scale;
  const out = rows.map((r, n) => {
    const y = n * rowH + 2;
    let pos = zero, neg = zero;
    const segs = keys.map((k) => {
      const v = r.parts[k] || 0;
      if (!v) return '';
      const w = Math.abs(v) * scale;
      const x0 = v > 0 ? pos : neg - w;
      if (v > 0) pos += w; else neg -= w;
      return `<rect x="${x0.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${rowH - 6}" fill="${colours[k]}">` +
        `<title>${esc(r.name)}: ${esc(k.replace('_', ' '))} ${v.toFixed(2)}</title></rect>`;
    }).join('');
    return `<text class="row-label" x="${labelW - 2}" y="${y + rowH / 2}">${esc(r.name)}</text>${segs}`;
  }).join('');
  const h = rows.length * rowH + 4;
  return `<svg class="chart stacked" viewBox="0 0 ${width} ${h}" role="img" aria-label="credits by source">` +
    `<line class="axis" x1="${zero}" x2="${zero}" y1="0" y2="${h}"/>${out}</svg>`;
}
