// The panel of the selected hex: terrain, Town or City, the units there (ours can be picked).

import { fillIn, h, seatStyle, touchScreen, UNIT_LETTER, UNIT_NAME, TERRAIN_NAME } from '../util.js';
import { t } from '../i18n.js';
import { lastSeenAt, lastSeenText } from '../fog.js';

export function renderSelection(page, c) {
  const panel = page.els.selection;
  panel.replaceChildren();
  const units = page.unitsById();
  const selected = page.ui.selectedUnit !== null ? units.get(page.ui.selectedUnit) : null;
  const hex = selected ? selected.hex : page.ui.selectedHex;
  if (hex === null || hex === undefined || hex < 0) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const hx = page.hexInfo(hex);
  panel.append(h('h2', {}, t('selection.hex', { hex: hx.label }), h('span', { class: 'subtle' }, ` · ${hx.known && hx.terrain ? TERRAIN_NAME[hx.terrain] : t('selection.unexplored')}`)));
  if (hx.town_owner !== undefined && hx.town_owner >= 0) {
    const parts = [];
    if (hx.capital_of !== undefined && hx.capital_of >= 0) parts.push(t('selection.capitalOf', { name: page.playerName(hx.capital_of) }));
    if (hx.built_this_turn) parts.push(t('selection.builtThisTurn'));
    const what = hx.city ? t('selection.cityOf') : t('selection.townOf');
    panel.append(h('p', {}, fillIn(what, { who: page.who(hx.town_owner) }), parts.map((part) => ` · ${part}`).join('')));
  }
  const here = page.view.units.filter((u) => u.place === 'map' && u.hex === hex);
  // Out of sight in a fog game: no units shown says nothing; what was last seen there may.
  if (hx.unseen) {
    const seen = lastSeenAt(page.view, hex).map((e) => lastSeenText(page.view, e, `${page.playerName(e.owner)} (${seatStyle(e.owner).name})`));
    panel.append(h('div', { class: 'subtle fog-notes' }, h('p', {}, t('fog.outOfSightPanel')), seen.length ? h('ul', {}, seen.map((line) => h('li', {}, line))) : null));
  } else if (!here.length) {
    panel.append(h('p', { class: 'subtle' }, t('selection.noUnits')));
  }
  const list = h('ul', { class: 'unit-chips' });
  const order = (u) => (u.carrier >= 0 ? u.carrier * 10 + 5 : u.id * 10);
  for (const u of here.sort((a, b) => a.owner - b.owner || order(a) - order(b))) {
    const st = seatStyle(u.owner);
    const can = c.unit.has(u.id);
    const status = [];
    if (u.owner === page.mySeat || u.owner === page.view.current) {
      status.push(t('selection.movesLeft', { n: u.moves_left }));
      if (u.move_done) status.push(t('selection.done'));
      if (u.attacked) status.push(t('selection.fought'));
      if (u.transported) status.push(t('selection.shipped'));
    }
    if (u.carrier >= 0) status.push(t('selection.aboard'));
    const chip = h(
      can ? 'button' : 'span',
      {
        type: can ? 'button' : undefined,
        class: `unit-chip${u.id === page.ui.selectedUnit ? ' selected' : ''}${can ? ' can-act' : ''}${u.carrier >= 0 ? ' cargo' : ''}`,
        dataset: { unit: u.id, focusKey: `unit:${u.id}` },
        'aria-pressed': can ? String(u.id === page.ui.selectedUnit) : undefined,
        onclick: can
          ? () => page.selectUnit(u.id)
          : undefined,
      },
      h('span', { class: 'mini-counter', style: `background:${st.fill};color:${st.ink};border-color:${st.edge}` }, UNIT_LETTER[u.type]),
      ` ${UNIT_NAME[u.type]}`,
      status.length ? h('span', { class: 'subtle' }, ` · ${status.join(' · ')}`) : null,
    );
    list.append(h('li', {}, chip));
  }
  panel.append(list);
  if (selected) {
    const acts = c.unit.get(selected.id) || [];
    const kinds = [...new Set(acts.map((a) => a.kind))];
    const names = { move: t('selection.canMove'), embark: t('selection.canEmbark'), disembark: t('selection.canLand'), bombard: t('selection.canBombard'), withdraw: t('selection.canWithdraw'), redeploy: t('selection.canRedeploy') };
    if (acts.length) {
      panel.append(h('p', { class: 'hint' }, t('selection.canAct', { unit: UNIT_NAME[selected.type], actions: kinds.map((k) => names[k] || k).join(', '), count: new Set(acts.map((a) => page.targetHex(a, units))).size })));
    }
    // A selected Frigate also shows where its cargo can land (see GamePage.selectedActions).
    const landings = page.selectedActions(c).filter((a) => a.kind === 'disembark' && a.unit !== selected.id);
    if (landings.length) {
      const cargo = [...new Set(landings.map((a) => UNIT_NAME[units.get(a.unit).type]))];
      const params = { cargo: cargo.join(', '), count: new Set(landings.map((a) => a.hex)).size };
      panel.append(h('p', { class: 'hint', id: 'cargo-hint' }, touchScreen() ? t('selection.cargoCanLandTouch', params) : t('selection.cargoCanLand', params)));
    }
    panel.append(h('button', { type: 'button', class: 'btn btn-small', onclick: () => page.clearSelection() }, t('selection.deselect')));
  }
}
