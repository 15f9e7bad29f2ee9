// Fair play in the client (docs/fair-play.md): the game page shows the server's commitment to
// the game's luck, keeps what this client saw (the witness, ./witness.js) and, once the game is
// over, offers the game record for download; the replay page checks the record with the
// verifier (./verify.js, run in its worker: ./fair_worker.js) against that witness and says what
// it found. Both say what fair play promises and what it does not (./fair_marks.js).

import { h } from './util.js';
import { t } from './i18n.js';
import { newWitness, noteStart, noteUpdate, saveWitness, loadWitness } from './witness.js';
import { verifyInWorker } from './fair_worker.js';
import { operatorPlays, promiseParagraphs } from './fair_marks.js';

export const shortHex = (hex) => (typeof hex === 'string' && hex.length > 16 ? `${hex.slice(0, 8)}…${hex.slice(-8)}` : hex || '');

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: nothing is kept
  }
}

// The record as the server sent it (its exact text), for a game that is over.
export async function fetchRecordText(gameId, { token, invite } = {}) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : '';
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/record${query}`, { headers, cache: 'no-store' });
  const text = await response.text();
  if (!response.ok) {
    let message = t('fairPlay.recordNotLoaded', { status: response.status });
    try {
      message = JSON.parse(text).error.message || message;
    } catch {
      // not JSON: the status says enough
    }
    throw new Error(message);
  }
  return text;
}

// Saves `text` as a file named `name` through the browser's download.
export function saveFile(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = h('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export const recordFileName = (gameId) => `viktory-game-${gameId}.json`;

// Keeps this client's witness of game `gameId` from the channel's messages, in localStorage,
// so that it outlives reloads and can be checked against the record on the replay page.
// Returns a function that stops listening.
export function keepWitness(channel, gameId) {
  const store = storage();
  let witness = store ? loadWitness(store, gameId) : null;
  const save = () => {
    if (!store || !witness) return;
    try {
      // The reveal round (./contribution.js) writes the commitments, our contribution and our
      // seat into the stored witness, maybe while this page holds an older copy: keep them.
      const stored = loadWitness(store, gameId);
      if (stored) {
        for (const key of ['contribution', 'contribution_commitments']) {
          if (witness[key] === undefined && stored[key] !== undefined) witness[key] = stored[key];
        }
        if (witness.seat === null && Number.isInteger(stored.seat)) witness.seat = stored.seat;
      }
      saveWitness(store, witness);
    } catch {
      // storage full or refused: the witness is a help, never required
    }
  };
  const ensure = (seat) => {
    if (!witness) witness = newWitness({ gameId, seat: seat === undefined ? null : seat });
    if (witness.seat === null && Number.isInteger(seat)) witness.seat = seat;
    return witness;
  };
  const onSeats = (e) => {
    if (typeof e.detail.commitment !== 'string') return; // a game from before fair play
    noteStart(ensure(), { commitment: e.detail.commitment });
    save();
  };
  const onState = (e) => {
    const { state, events, full } = e.detail;
    if (!state || !state.view) return;
    ensure(state.you ? state.you.seat : null);
    if (Number.isInteger(state.view.first_player)) noteStart(witness, { firstPlayer: state.view.first_player });
    if (!full) noteUpdate(witness, { seq: state.seq, events });
    save();
  };
  channel.addEventListener('seats', onSeats);
  channel.addEventListener('state', onState);
  if (channel.seats) onSeats({ detail: channel.seats });
  return () => {
    channel.removeEventListener('seats', onSeats);
    channel.removeEventListener('state', onState);
  };
}

// The game page's "Fair play" panel: the commitment while the game runs, the reveal and the
// record's download once it is over.
export class FairPlayPanel {
  constructor({ channel, gameId, token, invite }) {
    this.channel = channel;
    this.gameId = gameId;
    this.token = token;
    this.invite = invite;
    this.commitment = undefined; // unknown until game.seats; null: a game from before fair play
    // A guided first game has no record (the server answers 404 no_record: it starts from a
    // scenario, not from its seed). Its seats tell it: the passive computer plays only there.
    this.guided = false;
    this.over = false;
    this.revealed = null;
    this.body = h('div', { class: 'fair-body' });
    this.el = h('details', { class: 'panel fair-panel', id: 'fair-play' }, h('summary', {}, t('fairPlay.title')), this.body);
    const onSeats = (e) => {
      this.commitment = e.detail.commitment === undefined ? null : e.detail.commitment;
      this.operator = operatorPlays(e.detail.seats);
      this.guided = (e.detail.seats || []).some((seat) => seat && seat.computer === 'passive');
      if (e.detail.status === 'finished') this.over = true;
      this.render();
    };
    const onState = (e) => {
      const over = e.detail.state && e.detail.state.view && e.detail.state.view.phase === 'game_over';
      if (over && !this.over) {
        this.over = true;
        this.render();
      }
    };
    const onReveal = (e) => {
      this.revealed = e.detail;
      this.over = true;
      this.render();
    };
    channel.addEventListener('seats', onSeats);
    channel.addEventListener('state', onState);
    channel.addEventListener('reveal', onReveal);
    this.stopWitness = keepWitness(channel, gameId);
    this.off = () => {
      channel.removeEventListener('seats', onSeats);
      channel.removeEventListener('state', onState);
      channel.removeEventListener('reveal', onReveal);
      this.stopWitness();
    };
    if (channel.seats) onSeats({ detail: channel.seats });
    else this.render();
  }

  destroy() {
    this.off();
  }

  async download() {
    try {
      saveFile(recordFileName(this.gameId), await fetchRecordText(this.gameId, { token: this.token, invite: this.invite }));
    } catch (err) {
      this.body.append(h('p', { class: 'form-error' }, err.message));
    }
  }

  render() {
    const parts = [];
    if (this.commitment === undefined) {
      parts.push(h('p', { class: 'subtle' }, '…'));
    } else if (this.commitment === null) {
      parts.push(h('p', { class: 'subtle', id: 'fair-legacy' }, t('fairPlay.legacy')));
    } else {
      parts.push(
        h('p', {}, t('fairPlay.commitment')),
        h('code', { class: 'commitment', id: 'fair-commitment', title: this.commitment, dataset: { commitment: this.commitment } }, shortHex(this.commitment)),
      );
    }
    if (this.operator) parts.push(h('p', { class: 'operator-note', id: 'fair-operator' }, t('fairPlay.operatorPlays')));
    if (this.commitment) parts.push(...promiseParagraphs());
    if (this.guided) {
      // Nothing to download or check: one line says why.
      parts.push(h('p', { class: 'subtle', id: 'fair-no-record' }, t('fairPlay.guidedNoRecord')));
    } else if (this.over) {
      this.el.open = true; // the record is what a finished game offers here
      if (this.commitment) {
        parts.push(h('p', { id: 'fair-revealed' }, this.revealed ? t('fairPlay.revealed') : t('fairPlay.revealedInRecord')));
      }
      parts.push(
        h(
          'div',
          { class: 'fair-actions' },
          h('button', { type: 'button', class: 'btn btn-small', id: 'download-record', onclick: () => this.download() }, t('fairPlay.download')),
          ' ',
          h('a', { class: 'btn btn-small', href: `#/replay/${this.gameId}` }, t('fairPlay.checkOnReplay')),
        ),
      );
    } else if (this.commitment) {
      parts.push(h('p', { class: 'subtle' }, t('fairPlay.whenOver')));
    }
    this.body.replaceChildren(...parts);
  }
}

// What the verifier checked, in the page's language: "40 actions, 12 rolls (31 dice), 52 tiles;
// seed …; matches what your client saw" (the verifier's own summary is English).
function verifiedSummary(report) {
  if (![report.actions, report.rolls, report.dice, report.tiles].every(Number.isInteger)) return String(report.summary || '').replace(/^verified: /, '');
  const parts = [`${t('fairPlay.actions', { count: report.actions })}, ${t('fairPlay.rolls', { count: report.rolls, dice: t('fire.dice', { count: report.dice }) })}, ${t('fairPlay.tiles', { count: report.tiles })}`];
  if (report.seed) parts.push(t('fairPlay.seed', { seed: report.seed }));
  if (report.witness_checked) parts.push(t('fairPlay.matchesWitness'));
  return parts.join('; ');
}

// The replay page's check, when asked for (the verifier is 339 KB: it is not loaded with the
// page): loads the record, verifies it with this client's witness (if it kept one) and shows
// the verdict; also checks a record file chosen by the user.
export class VerificationPanel {
  constructor({ gameId, token, invite }) {
    this.gameId = gameId;
    this.token = token;
    this.invite = invite;
    this.status = h('div', { class: 'verify-status', id: 'verify-status', 'aria-live': 'polite' }, h('p', { class: 'subtle' }, t('fairPlay.checkAbout')));
    this.file = h('input', { type: 'file', accept: '.json,application/json', id: 'verify-file', 'aria-label': t('fairPlay.checkFile'), onchange: (e) => this.checkFile(e.target.files[0]) });
    this.el = h(
      'details',
      { class: 'panel verify-panel', id: 'verification', open: true },
      h('summary', {}, t('fairPlay.title')),
      ...promiseParagraphs(),
      this.status,
      h(
        'div',
        { class: 'fair-actions' },
        h('button', { type: 'button', class: 'btn btn-small btn-primary', id: 'verify-record', onclick: () => this.start() }, t('fairPlay.check')),
        h('button', { type: 'button', class: 'btn btn-small', id: 'download-record', onclick: () => this.download() }, t('fairPlay.download')),
      ),
      h('label', { class: 'subtle verify-file' }, `${t('fairPlay.checkFile')}: `, this.file),
    );
    this.text = null;
    this.report = null; // for tests: the last verdict shown
  }

  async start() {
    try {
      this.text = await fetchRecordText(this.gameId, { token: this.token, invite: this.invite });
    } catch (err) {
      this.show('unavailable', err.message);
      return;
    }
    await this.check(this.text, true);
  }

  async download() {
    try {
      saveFile(recordFileName(this.gameId), this.text || (await fetchRecordText(this.gameId, { token: this.token, invite: this.invite })));
    } catch (err) {
      this.show('unavailable', err.message);
    }
  }

  async checkFile(file) {
    if (!file) return;
    await this.check(await file.text(), false);
  }

  // Verifies `text`; the witness of this game applies to the server's record and to a file
  // that claims to be this game.
  async check(text, fromServer) {
    this.status.replaceChildren(t('fairPlay.checking'));
    let record = null;
    try {
      record = JSON.parse(text);
    } catch {
      // the verifier says what is wrong with it
    }
    if (record && typeof record === 'object' && record.format === 'viktory-game-record' && record.commitment === null) {
      this.report = { verified: false, legacy: true };
      this.show('legacy', t('fairPlay.notVerifiable'));
      return;
    }
    const store = storage();
    const witness = store && record && (fromServer || record.game_id === this.gameId) ? loadWitness(store, this.gameId) : null;
    let report;
    try {
      // In the verifier's worker: only its script may compile WebAssembly (./fair_worker.js).
      report = await verifyInWorker(text, { witness: witness ? JSON.stringify(witness) : null });
    } catch (err) {
      this.report = { verified: false, unavailable: true };
      this.show('unavailable', t('fairPlay.verifierUnavailable', { message: err.message }));
      return;
    }
    this.report = report;
    const source = fromServer ? t('fairPlay.serverRecord') : record && record.game_id ? t('fairPlay.fileOfGame', { id: record.game_id }) : t('fairPlay.file');
    if (report.verified) {
      this.show('verified', `✔ ${t('fairPlay.verified', { source, summary: verifiedSummary(report) })}`, report.notes || []);
    } else {
      // The verifier's own words say what failed (English, like the server's error messages).
      this.show('failed', `✘ ${t('fairPlay.notVerified', { source, failure: report.failure })}`, report.notes || []);
    }
  }

  show(kind, text, notes = []) {
    this.status.dataset.verdict = kind;
    const parts = [h('p', { class: `verdict verdict-${kind}`, id: 'verify-verdict' }, text)];
    if (notes.length) parts.push(h('ul', { class: 'subtle verify-notes' }, notes.map((n) => h('li', {}, n))));
    this.status.replaceChildren(...parts);
  }
}
