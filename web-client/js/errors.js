// The server's errors in the reader's language (docs/client.md, "Languages"): every error the
// server answers carries a code (docs/protocol.md, "Error codes"); the page shows the catalog's
// text for it. The server's own message stays English (it is for API users and logs) and is
// shown only for a code this table does not know yet (a newer server).
//
// Written out, code by code, so that tests/browser/i18n_catalog.test.js finds every key.

import { t } from './i18n.js';

const TEXTS = {
  bad_json: () => t('error.badJson'),
  bad_confirmation: () => t('leaving.badConfirmation'), // leaving.js
  player_deleted: () => t('leaving.playerDeleted'),
  bad_message: () => t('error.badMessage'),
  unknown_type: () => t('error.unknownType'),
  unauthenticated: () => t('error.unauthenticated'),
  auth_failed: () => t('error.authFailed'),
  too_large: () => t('error.tooLarge'),
  rate_limited: () => t('error.rateLimited'),
  not_found: () => t('error.notFound'),
  bad_options: () => t('error.badOptions'),
  already_seated: () => t('error.alreadySeated'),
  seat_taken: () => t('error.seatTaken'),
  bad_seat: () => t('error.badSeat'),
  not_open: () => t('error.notOpen'),
  not_creator: () => t('error.notCreator'),
  not_private: () => t('error.notPrivate'),
  too_few_players: () => t('error.tooFewPlayers'),
  not_seated: () => t('error.notSeated'),
  too_many_mutes: () => t('chat.errorTooManyMutes'),
  bad_player: () => t('chat.errorMuteSelf'),
  not_running: () => t('error.notRunning'),
  not_watching: () => t('error.notWatching'),
  game_over: () => t('error.gameOver'),
  stale: () => t('error.stale'),
  not_your_turn: () => t('error.notYourTurn'),
  illegal_action: () => t('error.illegalAction'),
  cannot_undo: () => t('error.cannotUndo'),
  chat_empty: () => t('error.chatEmpty'),
  chat_too_long: () => t('error.chatTooLong'),
  bad_orders: () => t('error.badOrders'),
  no_spectators: () => t('error.noSpectators'),
  too_many_games: () => t('error.tooManyGames'),
  too_many_computer_games: () => t('error.tooManyComputerGames'),
  too_many_open_games: () => t('error.tooManyOpenGames'),
  bad_page: () => t('error.badPage'),
  game_damaged: () => t('error.gameDamaged'),
  storage_error: () => t('error.storageError'),
  game_unavailable: () => t('error.gameUnavailable'),
  game_elsewhere: () => t('error.gameElsewhere'),
  internal: () => t('error.internal'),
  method: () => t('error.method'),
  bad_name: () => t('error.badName'),
  bad_code: () => t('error.badCode'),
  too_many_links: () => t('error.tooManyLinks'),
  email_unavailable: () => t('error.emailUnavailable'),
  bad_address: () => t('error.badAddress'),
  mail_limited: () => t('error.mailLimited'),
  bad_subscription: () => t('error.badSubscription'),
  endpoint_taken: () => t('error.endpointTaken'),
  bad_webhook: () => t('error.badWebhook'),
  bad_time_zone: () => t('error.badTimeZone'),
  bad_language: () => t('error.badLanguage'),
  no_clock: () => t('error.noClock'),
  not_overdue: () => t('error.notOverdue'),
  own_turn: () => t('error.ownTurn'),
  too_few_skips: () => t('error.tooFewSkips'),
  already_voted: () => t('error.alreadyVoted'),
  not_taken_over: () => t('error.notTakenOver'),
  bad_vacation: () => t('error.badVacation'),
  retired: () => t('error.retired'),
  no_battle: () => t('error.noBattle'),
  unknown_hex: () => t('error.unknownHex'),
  bad_range: () => t('error.badRange'),
  not_finished: () => t('error.notFinished'),
  busy: () => t('error.busy'),
  bad_player: () => t('error.badPlayer'),
  too_many_follows: () => t('error.tooManyFollows'),
  not_friend: () => t('error.notFriend'),
  already_invited: () => t('error.alreadyInvited'),
  invite_needed: () => t('error.inviteNeeded'),
  no_free_seat: () => t('error.noFreeSeat'),
};

// The text to show for an error the server answered with `code`: the catalog's, else the
// server's `message`, else the code itself.
export function serverErrorText(code, message) {
  const text = Object.hasOwn(TEXTS, code) ? TEXTS[code] : null;
  return text ? text() : message || code;
}
