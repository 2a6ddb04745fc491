// The board: the printed labels on the edges and one button per square (its accessible name holds
// the square's label: "square 7,8: empty"), each drawing its tile. Overlays: the rule breaks, the
// placement advisor's ranks, a heat map, the selection.

import {esc, heat, kindLabel, pct, tileSVG} from './draw.js';

const SIDE_WORD = ['front', 'right', 'rear', 'left'];

export class Board {
  constructor(el, handlers) {
    this.el = el;
    this.h = handlers;     // {activate(i), pick(i), drop(from, to), focus(i)}
    this.focus = null;     // square index holding the roving tab stop
    this.buttons = new Map();
    this.drag = null;
    this.fixed = Boolean(handlers.fixed);
    el.addEventListener('keydown', (e) => this.key(e));
    if (!this.fixed && window.ResizeObserver) new ResizeObserver(() => this.fit()).observe(el.parentElement);
  }

  // squares as large as the room allows (up to 76 px), never under 30 px; on a wide screen the
  // board leaves room below it for the tile in hand (header, status and hand: about 330 px)
  size(view) {
    if (this.fixed) return this.h.sq || 44;
    const b = view.board;
    const room = this.el.parentElement.clientWidth - 22;
    const narrow = room < 520;
    const label = narrow ? 16 : 22, gap = narrow ? 2 : 3;
    let sq = Math.floor((room - label - gap * b.width) / b.width);
    if (!narrow) sq = Math.min(sq, Math.floor((window.innerHeight - 330) / b.height) - gap);
    return Math.max(30, Math.min(76, sq));
  }

  fit() {
    if (this.fixed || !this.view) return;
    const sq = this.size(this.view);
    if (sq !== this.sq && this.last) { this.render(...this.last); return; }  // labels drawn for the new size
    this.el.style.setProperty('--sq', `${sq}px`);
  }

  // view: the server's drawing; o: {selected, marked:Set, hand, advice:{i:{rank,of,tip,legal,other}}, heat, moving}
  render(view, o) {
    const b = view.board;
    const el = this.el;
    this.view = view;
    this.last = [view, o];
    this.sq = this.size(view);
    this.width = b.width;
    el.style.setProperty('--cols', b.width);
    el.style.setProperty('--rows', b.height);
    el.dataset.front = b.front;
    const tiles = new Map(view.tiles.map((t) => [t.i, t]));
    const frag = document.createDocumentFragment();
    const corner = document.createElement('div');
    corner.className = 'corner';
    corner.setAttribute('aria-hidden', 'true');
    frag.appendChild(corner);
    b.columns.forEach((c, j) => {
      const d = document.createElement('div');
      d.className = 'label col';
      d.setAttribute('aria-hidden', 'true');
      d.textContent = b.index_cells ? `${c} · c${j}` : c;
      frag.appendChild(d);
    });
    this.buttons = new Map();
    const live = view.squares.filter((s) => s.state !== 'off');
    if (this.focus === null || !live.some((s) => s.i === this.focus)) {
      const start = view.squares.find((s) => s.state === 'start') || tiles.values().next().value || live[0];
      this.focus = start ? start.i : null;
    }
    for (let r = 0; r < b.height; r++) {
      const lab = document.createElement('div');
      lab.className = 'label row';
      lab.setAttribute('aria-hidden', 'true');
      lab.textContent = b.index_cells ? `${b.rows[r]} · r${r}` : b.rows[r];
      frag.appendChild(lab);
      for (let c = 0; c < b.width; c++) {
        const sq = view.squares[r * b.width + c];
        if (sq.state === 'off') {
          const d = document.createElement('div');
          d.className = 'sq off';
          d.setAttribute('aria-hidden', 'true');
          frag.appendChild(d);
          continue;
        }
        const btn = this.square(sq, tiles.get(sq.i), o);
        if (b.seams.includes(c - 1)) btn.classList.add('seam-left');  // a transdimensional seam (IC, IIC)
        frag.appendChild(btn);
      }
    }
    const hadFocus = el.contains(document.activeElement);
    el.replaceChildren(frag);
    if (hadFocus) this.focusBoard();  // a new drawing keeps the keyboard where it was
    el.classList.toggle('holding', Boolean(o.hand));
    this.fit();
  }

  square(sq, t, o) {
    const btn = document.createElement('button');
    btn.type = 'button';
    btn.className = `sq ${t ? 'filled' : sq.state}`;
    btn.dataset.i = sq.i;
    btn.tabIndex = sq.i === this.focus ? 0 : -1;
    const words = [];
    let inner = '';
    const adv = o.advice && o.advice[sq.i];
    const moving = o.moving === sq.i;
    if (t && !moving) {
      words.push(describe(t));
      const title = `${sq.label}: ${describe(t)}`;
      inner = tileSVG(t, {title, px: this.sq});
      if (t.codes.length) btn.classList.add(t.codes.some((c) => c !== 'W1') ? 'bad' : 'warn');
      btn.draggable = false;
    } else {
      words.push(sq.state === 'locked' ? 'locked (not buildable)' : sq.state === 'start' ? 'empty start square' : 'empty');
      if (sq.state === 'start') inner = '<span class="start-mark" aria-hidden="true">S</span>';
      if (moving) btn.classList.add('moving');
    }
    if (o.heat && t && o.heat.tiles[sq.i] !== undefined) {
      const p = o.heat.tiles[sq.i];
      btn.classList.add(p > 0 ? 'heat' : 'heat-zero');
      if (p > 0) btn.style.setProperty('--heat', heat(p, o.heat.top));
      inner += `<span class="heat-label${p / Math.max(o.heat.top, 0.05) > 0.45 ? ' dark' : ''}">${pct(p)}</span>`;
      words.push(`${o.heat.what} ${pct(p)}`);
    }
    if (adv) {
      if (adv.legal) {
        btn.classList.add('advice');
        btn.style.setProperty('--rank', adv.colour);
        inner += `<span class="rank by-${adv.by}" aria-hidden="true">${adv.rank}</span>`;
        words.push(`legal for the tile in hand, rank ${adv.rank} of ${adv.of} by ${adv.by}${adv.credits ? `, ${adv.credits}` : ''}`);
      } else if (adv.other) {
        btn.classList.add('advice-other');
        words.push(`legal for the tile in hand turned ${adv.other}`);
      }
      if (adv.tip) btn.title = adv.tip;
    }
    if (o.selected === sq.i) {
      btn.classList.add('selected');
      btn.setAttribute('aria-pressed', 'true');
    }
    if (o.marked && o.marked.has(sq.i)) btn.classList.add('marked');
    btn.setAttribute('aria-label', `square ${sq.label}: ${words.join('; ')}`);
    btn.innerHTML = inner;
    btn.addEventListener('click', () => { this.setFocus(sq.i, false); this.h.activate(sq.i); });
    btn.addEventListener('pointerdown', (e) => this.pointerDown(e, sq.i, t));
    this.buttons.set(sq.i, btn);
    return btn;
  }

  setFocus(i, move = true) {
    const old = this.buttons.get(this.focus);
    if (old) old.tabIndex = -1;
    this.focus = i;
    const btn = this.buttons.get(i);
    if (btn) {
      btn.tabIndex = 0;
      if (move) btn.focus();
    }
  }

  focusBoard() {
    const btn = this.buttons.get(this.focus);
    if (btn) btn.focus();
  }

  key(e) {
    const i = Number(e.target && e.target.dataset && e.target.dataset.i);
    if (!Number.isFinite(i) || !this.view) return;
    const step = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]}[e.key];
    if (!step) return;
    e.preventDefault();
    const w = this.width, h = this.view.board.height;
    let r = Math.floor(i / w), c = i % w;
    for (let k = 0; k < Math.max(w, h); k++) {
      r += step[0];
      c += step[1];
      if (r < 0 || c < 0 || r >= h || c >= w) return;
      const j = r * w + c;
      if (this.buttons.has(j)) { this.setFocus(j); return; }
    }
  }

  // dragging a tile to another square moves it (mouse, pen or touch)
  pointerDown(e, i, t) {
    if (!t || t.implied && !this.h.canMovePilot || e.button !== 0) return;
    const start = {x: e.clientX, y: e.clientY};
    let ghost = null;
    const move = (ev) => {
      if (!ghost && Math.hypot(ev.clientX - start.x, ev.clientY - start.y) > 6) {
        ghost = document.createElement('div');
        ghost.className = 'ghost';
        ghost.innerHTML = tileSVG(t, {labels: false});
        document.body.appendChild(ghost);
        this.buttons.get(i).classList.add('moving');
      }
      if (ghost) {
        ghost.style.left = `${ev.clientX}px`;
        ghost.style.top = `${ev.clientY}px`;
        this.hover(ev);
      }
    };
    const up = (ev) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      if (!ghost) return;
      ghost.remove();
      this.el.querySelectorAll('.drop').forEach((b) => b.classList.remove('drop'));
      const target = document.elementFromPoint(ev.clientX, ev.clientY);
      const sq = target && target.closest('.sq[data-i]');
      const tray = target && target.closest('#aside, #panel-palette');
      this.suppressClick();
      if (ev.type === 'pointerup' && sq && Number(sq.dataset.i) !== i) this.h.drop(i, Number(sq.dataset.i));
      else if (ev.type === 'pointerup' && tray) this.h.aside(i);
      else this.buttons.get(i)?.classList.remove('moving');
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
  }

  hover(ev) {
    const target = document.elementFromPoint(ev.clientX, ev.clientY);
    const sq = target && target.closest('.sq[data-i]');
    this.el.querySelectorAll('.drop').forEach((b) => { if (b !== sq) b.classList.remove('drop'); });
    if (sq) sq.classList.add('drop');
  }

  suppressClick() {
    const stop = (e) => { e.stopPropagation(); e.preventDefault(); };
    window.addEventListener('click', stop, {capture: true, once: true});
    setTimeout(() => window.removeEventListener('click', stop, {capture: true}), 50);
  }
}

// A tile in words, for screen readers and tooltips.
export function describe(t) {
  const parts = [kindLabel(t.kind)];
  if (t.id) parts.push(t.id);
  if (t.implied) parts.push('on the start square');
  if (t.rot) parts.push(`turned ${t.rot}°`);
  if (t.crew) parts.push(`crew ${t.crew}`);
  if (t.charge !== null && t.charge !== undefined) parts.push(`${t.charge} charges`);
  if (t.goods && t.goods.length) parts.push(`goods ${t.goods.join(' ')}`);
  const conn = t.connectors.map((c, s) => c ? `${SIDE_WORD[s]} ${['', 'single', 'double', 'universal'][c]}` : '')
    .filter(Boolean);
  if (conn.length) parts.push(`connectors ${conn.join(', ')}`);
  if (t.exposed.length) parts.push(`${t.exposed.length} exposed`);
  if (t.codes.length) parts.push(`breaks ${t.codes.join(', ')}`);
  return parts.join(', ');
}

export {esc};
