// The guided first game's steps, as data (docs/client.md, "The guided first game"). The
// position is the server's scenario (server/tutorial/first-game.json): Red (you, seat 0)
// against Yellow, a computer that only ends its phases. Each step has
//   id:        its name (kept to resume, and in the page as data-step)
//   text():    what to do and why, from the catalogs
//   done(s):   whether the player did it, read from the state the server sent (view, legal):
//              the client knows no rule, it only looks at the view
//   after():   what just happened, shown with the next step (optional)
//   hexes(s):  the labels of the hexes to highlight (optional)
//   target(s): a CSS selector of a button to highlight (optional)
//   next:      the step is read and then "Next" is pressed (no check in the game)
//   wait:      the computer plays: nothing to click
// Checks hold from the moment the step is done on (later turns count as done), so that a
// page opened again mid-game finds its step from the view alone.

import { t } from '../i18n.js';

// Labels of hexes in the scenario.
const CAPITAL = 'D2';
const ENEMY_CAPITAL = 'C4';

function hexOf(view, label) {
  const found = view.hexes.find((x) => x.label === label);
  return found ? found.hex : -1;
}

function labelOf(view, hex) {
  const found = view.hexes[hex];
  return found ? found.label : '';
}

function me(s) {
  return s.you ? s.you.seat : 0;
}

function myUnits(s, type) {
  return s.view.units.filter((u) => u.owner === me(s) && u.type === type && u.place === 'map');
}

function unitAt(s, type, label) {
  return myUnits(s, type).some((u) => u.hex === hexOf(s.view, label));
}

function over(s) {
  return s.view.phase === 'game_over';
}

// Red's own Player Turns are the even turns of this game (Yellow plays first: [4.0]).
function myTurnFrom(s, turn) {
  return s.view.current === me(s) && s.view.turn >= turn && !over(s);
}

// The next hexes of a unit walking `path` (labels), from where it stands: its hex (to select
// it) and the next one; only the next one while its move is under way (it stays selected).
function walk(s, type, path) {
  const units = myUnits(s, type);
  for (let i = path.length - 2; i >= 0; i -= 1) {
    const unit = units.find((u) => u.hex === hexOf(s.view, path[i]));
    if (unit) return unit.id === s.view.active_unit ? [path[i + 1]] : [path[i], path[i + 1]];
  }
  return [path[path.length - 1]];
}

export const STEPS = [
  {
    id: 'intro',
    next: true,
    text: () => t('tutorial.intro.text'),
  },
  {
    id: 'capital',
    text: () => t('tutorial.capital.text'),
    hexes: (s) => (s.view.capital_choices || []).map((hex) => labelOf(s.view, hex)),
    done: (s) => s.view.players[me(s)].capital_hex >= 0,
    after: () => t('tutorial.capital.after'),
  },
  {
    id: 'computer',
    wait: true,
    text: () => t('tutorial.computer.text'),
    done: (s) => over(s) || s.view.turn >= 2,
    after: () => t('tutorial.computer.after'),
  },
  {
    id: 'upgrade',
    text: () => t('tutorial.upgrade.text'),
    target: () => '[data-focus-key="mode:upgrade_city"]',
    hexes: () => [CAPITAL],
    done: (s) => over(s) || s.view.turn > 2 || s.view.hexes[hexOf(s.view, CAPITAL)].city === true,
    after: () => t('tutorial.upgrade.after'),
  },
  {
    id: 'explore',
    text: () => t('tutorial.explore.text'),
    hexes: (s) => walk(s, 'infantry', [CAPITAL, 'D3', 'D4']),
    done: (s) => over(s) || s.view.turn > 2 || unitAt(s, 'infantry', 'D4'),
    after: () => t('tutorial.explore.after'),
  },
  {
    id: 'end-movement',
    text: () => t('tutorial.endMovement.text'),
    target: () => '#end-phase',
    done: (s) => over(s) || s.view.turn > 2 || s.view.phase === 'reserve',
  },
  {
    id: 'reserve',
    text: () => t('tutorial.reserve.text'),
    target: () => '[data-focus-key="mode:place:cavalry"]',
    hexes: () => [CAPITAL],
    done: (s) => over(s) || s.view.turn > 2 || myUnits(s, 'cavalry').length > 0,
    after: () => t('tutorial.reserve.after'),
  },
  {
    id: 'end-turn',
    text: () => t('tutorial.endTurn.text'),
    target: () => '#end-phase',
    done: (s) => over(s) || s.view.turn > 2,
  },
  {
    id: 'computer-again',
    wait: true,
    text: () => t('tutorial.computerAgain.text'),
    done: (s) => over(s) || myTurnFrom(s, 4),
  },
  {
    id: 'skip-build',
    text: () => t('tutorial.skipBuild.text'),
    target: () => '#end-phase',
    done: (s) => over(s) || (s.view.turn >= 4 && s.view.phase !== 'build'),
  },
  {
    id: 'attack',
    text: () => t('tutorial.attack.text'),
    hexes: (s) => walk(s, 'infantry', ['D4', ENEMY_CAPITAL]),
    done: (s) => over(s) || unitAt(s, 'infantry', ENEMY_CAPITAL),
    after: () => t('tutorial.attack.after'),
  },
  {
    id: 'cavalry',
    text: () => t('tutorial.cavalry.text'),
    hexes: (s) => walk(s, 'cavalry', [CAPITAL, 'D3', 'D4', ENEMY_CAPITAL]),
    done: (s) => over(s) || unitAt(s, 'cavalry', ENEMY_CAPITAL),
  },
  {
    id: 'battle',
    text: () => t('tutorial.battle.text'),
    target: (s) => `[data-battle-hex="${hexOf(s.view, ENEMY_CAPITAL)}"]`,
    done: (s) => over(s),
    after: () => t('tutorial.battle.after'),
  },
  {
    id: 'won',
    end: true,
    text: () => t('tutorial.won.text'),
    done: () => false,
  },
];
