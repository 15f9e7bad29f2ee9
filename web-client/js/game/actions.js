// The action bar above the map: build modes, battles to fight, Reserve types, end of phase, undo.

import { h, UNIT_NAME, UNIT_TYPES } from '../util.js';
import { confirmDialog } from '../dialogs.js';
import { hexActionKinds } from './legal.js';

export function renderActions(page, c) {
  const bar = page.els.actions;
  bar.replaceChildren();
  const view = page.view;
  if (view.phase === 'game_over') {
    bar.append(h('a', { class: 'btn btn-primary', href: `#/replay/${page.gameId}` }, 'Watch the replay'), h('a', { class: 'btn', href: '#/' }, 'Back to the lobby'));
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
    if (towns) bar.append(modeBtn('build_town', 'Build Town', towns));
    if (cities) bar.append(modeBtn('upgrade_city', 'Upgrade to City', cities));
    for (const a of hexActs.filter((x) => x.kind === 'start_battle')) {
      bar.append(
        h('button', { type: 'button', class: 'btn btn-danger', dataset: { battleHex: a.hex }, onclick: () => page.send(a) }, `⚔ Fight at ${page.label(a.hex)}`),
      );
    }
    for (const type of UNIT_TYPES) {
      if (!c.place.has(type)) continue;
      const have = view.players[page.mySeat] ? view.players[page.mySeat].reserve[type] : '';
      bar.append(modeBtn(`place:${type}`, `Place ${UNIT_NAME[type]}`, have));
    }
    if (c.endPhase) {
      const label = { build: 'End Build phase', movement: 'End Movement phase', reserve: 'End turn', setup: 'Done' }[view.phase] || 'End phase';
      bar.append(h('button', { type: 'button', class: 'btn btn-primary', id: 'end-phase', onclick: () => endPhase(page, c) }, label));
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
          title: page.state.can_undo ? 'Take back your last action' : 'Nothing to undo (revealed tiles and dice cannot be taken back)',
          onclick: () => page.undo(),
        },
        '↶ Undo',
      ),
    );
  }
}

async function endPhase(page, c) {
  const view = page.view;
  const hexKinds = hexActionKinds(c);
  if (view.phase === 'build' && (hexKinds.has('build_town') || hexKinds.has('upgrade_city'))) {
    const ok = await confirmDialog('End the Build phase?', 'You have not built this turn. Skip building?', { ok: 'Skip building' });
    if (!ok) return;
  }
  if (view.phase === 'reserve' && c.place.size) {
    const ok = await confirmDialog('End your turn?', 'Units you did not place stay in your Reserve until a later turn.', { ok: 'End turn' });
    if (!ok) return;
  }
  page.ui.selectedUnit = null;
  page.ui.mode = null;
  page.send(c.endPhase);
}
