// The Settings panel beside the map: confirmations, warnings, hex labels, sounds. The values
// live in this browser (settings.js) and apply to every game.

import { h } from '../util.js';
import { t } from '../i18n.js';
import { settings } from '../settings.js';
import { unlockAudio, playSound } from '../sounds.js';

const ITEMS = [
  { key: 'confirmSealing', label: t('settings.confirmSealing'), help: t('settings.confirmSealingHelp') },
  { key: 'confirmExploring', label: t('settings.confirmExploring'), help: t('settings.confirmExploringHelp') },
  { key: 'warnUnmoved', label: t('settings.warnUnmoved') },
  { key: 'hexLabels', label: t('settings.hexLabels') },
  { key: 'soundTurn', label: t('settings.soundTurn'), sound: 'turn' },
  { key: 'soundBattle', label: t('settings.soundBattle'), sound: 'battle' },
];

export function buildSettingsPanel() {
  const list = h('div', { class: 'settings-list' });
  const inputs = new Map();
  for (const item of ITEMS) {
    const id = `setting-${item.key}`;
    const input = h('input', {
      type: 'checkbox',
      id,
      dataset: { setting: item.key },
      onchange: (ev) => {
        settings.set(item.key, ev.target.checked);
        if (item.sound && ev.target.checked) {
          // This click is the gesture browsers want before they play sound; play a sample.
          unlockAudio();
          playSound(item.sound);
        }
      },
    });
    inputs.set(item.key, input);
    list.append(
      h('label', { class: 'check', for: id }, input, h('span', {}, item.label, item.help ? h('span', { class: 'field-help' }, ` ${item.help}`) : null)),
    );
  }
  const sync = () => {
    for (const [key, input] of inputs) input.checked = !!settings.get(key);
  };
  sync();
  settings.addEventListener('change', sync);
  const panel = h('details', { class: 'panel settings-panel', id: 'settings' }, h('summary', {}, t('settings.title')), list);
  panel.destroy = () => settings.removeEventListener('change', sync);
  return panel;
}
