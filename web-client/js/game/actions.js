// The action bar above the map: build modes, battles to fight, Reserve types, end of phase, undo.

import { h, unitCount, UNIT_NAME, UNIT_TYPES } from '../util.js';
import { t } from '../i18n.js';
import { confirmDialog } from '../dialogs.js';
import { hexActionKinds } from './legal.js';
import { settings } from '../settings.js';
import { wantPreview } from './preview.js';
import { rematchButton } from './rematch.js';

// The Reserve buttons ("Place Infantry"), one catalog entry each.
const PLACE_LABEL = {
  infantry: () => t('actions.placeInfantry'),
  cavalry: () => t('actions.placeCavalry'),
  artillery: () => t('actions.placeArtillery'),
  frigate: () => t('actions.placeFrigate'),
};

// A Frigate's cargo that can land: "Infantry + Cavalry".
function cargoText(cargo) {
  return cargo.map((u) => UNIT_NAME[u.type]).join(' + ');
}

export function renderActions(page, c) {
  const bar = page.els.actions;
  bar.replaceChildren();
  const view = page.view;
  if (view.phase === 'game_over') {
    bar.append(h('a', { class: 'btn btn-primary', href: `#/replay/${page.gameId}` }, t('actions.watchReplay')), rematchButton(page), h('a', { class: 'btn', href: '#/' }, t('actions.backToLobby')));
    return;
  }
  const mine = page.isMyMove(c);
  const hexActs = [...c.hex.values()].flat();
  const modeBtn = (mode, label, count) =>
    h(
      'button',
      {
        type: 'button',
        class: `btn${page.ui.mode === mode ? ' btn-active' : ''}`,
        'aria-pressed': page.ui.mode === mode ? 'true' : 'false',
        dataset: { focusKey: `mode:${mode}` },
        onclick: () => {
          page.ui.mode = page.ui.mode === mode ? null : mode;
          page.ui.selectedUnit = null;
          page.render();
        },
      },
      label,
      count !== undefined ? h('span', { class: 'badge' }, String(count)) : null,
    );
  if (mine) {
    const towns = hexActs.filter((a) => a.kind === 'build_town').length;
    const cities = hexActs.filter((a) => a.kind === 'upgrade_city').length;
    if (towns) bar.append(modeBtn('build_town', t('actions.buildTown'), towns));
    if (cities) bar.append(modeBtn('upgrade_city', t('actions.upgradeCity'), cities));
    const relocations = hexActs.filter((a) => a.kind === 'remove_town').length;
    if (relocations) bar.append(modeBtn('relocate', t('actions.relocate'), relocations));
    for (const a of hexActs.filter((x) => x.kind === 'start_battle')) {
      bar.append(
        h('button', { type: 'button', class: 'btn btn-danger', dataset: { battleHex: a.hex, focusKey: `battle:${a.hex}` }, onclick: () => page.send(a), onmouseenter: () => wantPreview(page, a.hex, []), onfocus: () => wantPreview(page, a.hex, []) }, t('actions.fightAt', { hex: page.label(a.hex) })),
      );
    }
    for (const type of UNIT_TYPES) {
      if (!c.place.has(type)) continue;
      const have = view.players[page.mySeat] ? view.players[page.mySeat].reserve[type] : '';
      bar.append(modeBtn(`place:${type}`, PLACE_LABEL[type](), have));
    }
    for (const f of landingFrigates(page, c)) {
      bar.append(
        h(
          'button',
          { type: 'button', class: 'btn btn-land', dataset: { landFrom: f.frigate.id, focusKey: `land:${f.frigate.id}` }, title: t('actions.landTitle', { hex: page.label(f.frigate.hex) }), onclick: () => page.selectUnit(f.frigate.id) },
          t('actions.landFrom', { cargo: cargoText(f.cargo), hex: page.label(f.frigate.hex) }),
        ),
      );
    }
    if (c.endPhase && reinforcing(page)) {
      // The Vassal's reinforcement of his returned Capital, out of turn [15.62].
      bar.append(h('button', { type: 'button', class: 'btn btn-primary', id: 'end-phase', title: t('actions.reinforceTitle'), onclick: () => page.send(c.endPhase) }, t('actions.doneReinforcing')));
    } else if (c.endPhase) {
      const endsTurn = endPhaseEndsTurn(page);
      const label = { build: t('actions.endBuild'), movement: endsTurn ? t('actions.endMovementAndTurn') : t('actions.endMovement'), reserve: t('actions.endTurn'), setup: t('actions.done') }[view.phase] || t('actions.endPhase');
      const title = view.phase === 'movement' && endsTurn ? t('actions.endsTurnTitle') : undefined;
      bar.append(h('button', { type: 'button', class: 'btn btn-primary', id: 'end-phase', title, onclick: () => endPhase(page, c) }, label));
    }
  }
  if (page.mySeat !== null) {
    bar.append(
      h(
        'button',
        {
          type: 'button',
          class: 'btn',
          id: 'undo',
          disabled: !page.state.can_undo || page.ui.busy,
          title: page.state.can_undo ? t('actions.undoTitle') : t('actions.nothingToUndo'),
          onclick: () => page.undo(),
        },
        t('actions.undo'),
      ),
    );
  }
}

// This player reinforces his returned Capital [15.62]: his end_phase ends that, not a phase.
export function reinforcing(page) {
  const ret = page.view.capital_return;
  return !!ret && ret.stage === 'reinforce' && ret.vassal === page.mySeat;
}

// Ending the Movement phase with an empty Reserve skips the Reserve phase: the turn is over.
export function endPhaseEndsTurn(page) {
  const view = page.view;
  if (view.phase === 'reserve') return true;
  if (view.phase !== 'movement') return false;
  const me = view.players[page.mySeat];
  return !!me && UNIT_TYPES.every((t) => !(me.reserve && me.reserve[t] > 0));
}

// Our units that the legal list still lets move, grouped for a sentence ("2 Infantry at C4").
function unitsThatCanMove(page, c) {
  const units = page.unitsById();
  const groups = new Map();
  for (const [id, acts] of c.unit) {
    const u = units.get(id);
    if (!u || u.place !== 'map' || !acts.some((a) => a.kind === 'move' || a.kind === 'embark' || a.kind === 'disembark')) continue;
    const key = `${u.type}|${u.hex}`;
    if (!groups.has(key)) groups.set(key, { type: u.type, hex: u.hex, count: 0 });
    groups.get(key).count += 1;
  }
  return [...groups.values()];
}

async function endPhase(page, c) {
  const view = page.view;
  const hexKinds = hexActionKinds(c);
  if (view.phase === 'build' && (hexKinds.has('build_town') || hexKinds.has('upgrade_city'))) {
    const ok = await confirmDialog(t('actions.endBuildQuestion'), t('actions.notBuilt'), { ok: t('actions.skipBuilding') });
    if (!ok) return;
  }
  if (view.phase === 'movement') {
    const idle = settings.get('warnUnmoved') ? unitsThatCanMove(page, c) : [];
    const endsTurn = endPhaseEndsTurn(page);
    if (idle.length) {
      const count = idle.reduce((n, g) => n + g.count, 0);
      const list = idle.map((g) => t('actions.unitsAt', { units: unitCount(g.type, g.count), hex: page.label(g.hex) })).join(', ');
      const text = t('actions.canStillMove', { count, list });
      const ok = await confirmDialog(
        endsTurn ? t('actions.endMovementAndTurnQuestion') : t('actions.endMovementQuestion'),
        endsTurn ? `${text} ${t('actions.reserveEmptyEndsTurn')}` : text,
        { ok: endsTurn ? t('actions.endPhaseAndTurn') : t('actions.endPhase') },
      );
      if (!ok) return;
    }
  }
  if (view.phase === 'reserve' && c.place.size) {
    const ok = await confirmDialog(t('actions.endTurnQuestion'), t('actions.unplacedStay'), { ok: t('actions.endTurn') });
    if (!ok) return;
  }
  page.ui.selectedUnit = null;
  page.ui.mode = null;
  page.send(c.endPhase);
}

// Our Frigates whose cargo the legal list lets land now, with that cargo.
export function landingFrigates(page, c) {
  const units = page.unitsById();
  const byFrigate = new Map();
  for (const [id, acts] of c.unit) {
    const u = units.get(id);
    if (!u || !(u.carrier >= 0) || !acts.some((a) => a.kind === 'disembark')) continue;
    const frigate = units.get(u.carrier);
    if (!frigate) continue;
    if (!byFrigate.has(frigate.id)) byFrigate.set(frigate.id, { frigate, cargo: [] });
    byFrigate.get(frigate.id).cargo.push(u);
  }
  return [...byFrigate.values()];
}
