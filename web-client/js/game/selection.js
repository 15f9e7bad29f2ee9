// The panel of the selected hex: terrain, Town or City, the units there (ours can be picked).

import { clickWord, h, plural, seatStyle, UNIT_LETTER, UNIT_NAME, TERRAIN_NAME } from '../util.js';

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
  panel.append(h('h2', {}, `Hex ${hx.label}`, h('span', { class: 'subtle' }, ` · ${hx.known && hx.terrain ? TERRAIN_NAME[hx.terrain] : 'unexplored'}`)));
  if (hx.town_owner !== undefined && hx.town_owner >= 0) {
    panel.append(h('p', {}, page.who(hx.town_owner), ` ${hx.city ? 'City' : 'Town'}${hx.capital_of !== undefined && hx.capital_of >= 0 ? ` · ${page.playerName(hx.capital_of)}'s Capital` : ''}${hx.built_this_turn ? ' · built this turn' : ''}`));
  }
  const here = page.view.units.filter((u) => u.place === 'map' && u.hex === hex);
  if (!here.length) {
    panel.append(h('p', { class: 'subtle' }, 'No units here.'));
  }
  const list = h('ul', { class: 'unit-chips' });
  const order = (u) => (u.carrier >= 0 ? u.carrier * 10 + 5 : u.id * 10);
  for (const u of here.sort((a, b) => a.owner - b.owner || order(a) - order(b))) {
    const st = seatStyle(u.owner);
    const can = c.unit.has(u.id);
    const status = [];
    if (u.owner === page.mySeat || u.owner === page.view.current) {
      status.push(`${u.moves_left} MP`);
      if (u.move_done) status.push('done');
      if (u.attacked) status.push('fought');
      if (u.transported) status.push('shipped');
    }
    if (u.carrier >= 0) status.push('aboard');
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
    const names = { move: 'move', embark: 'board a Frigate', disembark: 'land', bombard: 'bombard', withdraw: 'withdraw [15.62]' };
    if (acts.length) {
      panel.append(h('p', { class: 'hint' }, `This ${UNIT_NAME[selected.type]} can ${kinds.map((k) => names[k]).join(', ')}: ${plural(new Set(acts.map((a) => page.targetHex(a, units))).size, 'highlighted hex', 'highlighted hexes')}.`));
    }
    // A selected Frigate also shows where its cargo can land (see GamePage.selectedActions).
    const landings = page.selectedActions(c).filter((a) => a.kind === 'disembark' && a.unit !== selected.id);
    if (landings.length) {
      const cargo = [...new Set(landings.map((a) => UNIT_NAME[units.get(a.unit).type]))];
      panel.append(h('p', { class: 'hint', id: 'cargo-hint' }, `Its cargo (${cargo.join(', ')}) can land on ${plural(new Set(landings.map((a) => a.hex)).size, 'hex', 'hexes')} marked ↓: ${clickWord()} one.`));
    }
    panel.append(h('button', { type: 'button', class: 'btn btn-small', onclick: () => page.clearSelection() }, 'Deselect'));
  }
}
