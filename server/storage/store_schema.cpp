// The database's schema: its numbered migrations (docs/server.md, "The store").
#include "store_schema.h"

#include <iterator>
#include <stdexcept>
#include <string>

#include "store.h"

namespace viktory::server {
namespace {

// Migration i (1-based) brings the schema from version i-1 to i. Append, never edit.
const char* const kMigrations[] = {
    R"sql(
CREATE TABLE players(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created INTEGER NOT NULL);
CREATE TABLE games(
  id INTEGER PRIMARY KEY,
  options TEXT NOT NULL,
  seed INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  created INTEGER NOT NULL,
  creator INTEGER NOT NULL REFERENCES players(id),
  private INTEGER NOT NULL DEFAULT 0,
  invite_code TEXT,
  result TEXT,
  current_seat INTEGER NOT NULL DEFAULT -1,
  seq INTEGER NOT NULL DEFAULT 0,
  last_move_at INTEGER);
CREATE INDEX games_by_status ON games(status);
CREATE TABLE seats(
  game_id INTEGER NOT NULL REFERENCES games(id),
  seat INTEGER NOT NULL,
  player_id INTEGER NOT NULL REFERENCES players(id),
  joined INTEGER NOT NULL,
  PRIMARY KEY(game_id, seat),
  UNIQUE(game_id, player_id));
CREATE INDEX seats_by_player ON seats(player_id);
CREATE TABLE actions(
  game_id INTEGER NOT NULL REFERENCES games(id),
  seq INTEGER NOT NULL,
  action TEXT NOT NULL,
  sealed INTEGER NOT NULL,
  turn INTEGER NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY(game_id, seq)) WITHOUT ROWID;
CREATE TABLE snapshots(
  game_id INTEGER NOT NULL REFERENCES games(id),
  seq INTEGER NOT NULL,
  state TEXT NOT NULL,
  PRIMARY KEY(game_id, seq)) WITHOUT ROWID;
CREATE TABLE chat(
  id INTEGER PRIMARY KEY,
  game_id INTEGER NOT NULL REFERENCES games(id),
  player_id INTEGER NOT NULL REFERENCES players(id),
  seat INTEGER,
  name TEXT NOT NULL,
  text TEXT NOT NULL,
  at INTEGER NOT NULL);
CREATE INDEX chat_by_game ON chat(game_id, id);
)sql",
    // 2: invite codes are kept only as hashes (the step below hashes the stored ones), and the
    // creator chooses who may watch a running game.
    R"sql(
ALTER TABLE games ADD COLUMN invite_hash TEXT;
ALTER TABLE games ADD COLUMN spectators TEXT NOT NULL DEFAULT 'live';
ALTER TABLE games ADD COLUMN spectator_delay INTEGER NOT NULL DEFAULT 0;
)sql",
    // 3: fair play (docs/fair-play.md): the published commitment with the game, its secret and
    // salt in a table of their own that only fair_play.cpp reads. Older games have neither.
    R"sql(
ALTER TABLE games ADD COLUMN commitment TEXT;
CREATE TABLE game_secrets(
  game_id INTEGER PRIMARY KEY REFERENCES games(id),
  secret TEXT NOT NULL,
  salt TEXT NOT NULL);
)sql",
    // 4 (accounts.h): a player on several devices (one token per device beside the first one
    // in players), single-use sign-in links and recovery codes, and an optional e-mail address
    // verified by a link. Secrets are kept as SHA-256 hashes only. Turn notifications
    // (turn_notifications.h): the server's VAPID key, push subscriptions, settings per player,
    // muted games and a webhook per game. IF NOT EXISTS: new tables only, so a database that
    // was taken back to an older version by hand (as a test does) migrates again.
    R"sql(
CREATE TABLE IF NOT EXISTS device_tokens(
  token_hash TEXT PRIMARY KEY,
  player_id INTEGER NOT NULL REFERENCES players(id),
  created INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS device_tokens_by_player ON device_tokens(player_id);
CREATE TABLE IF NOT EXISTS sign_in_codes(
  code_hash TEXT PRIMARY KEY,
  player_id INTEGER NOT NULL REFERENCES players(id),
  kind TEXT NOT NULL,
  created INTEGER NOT NULL,
  expires INTEGER) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sign_in_codes_by_player ON sign_in_codes(player_id);
CREATE TABLE IF NOT EXISTS player_emails(
  player_id INTEGER PRIMARY KEY REFERENCES players(id),
  address TEXT NOT NULL,
  verified INTEGER NOT NULL DEFAULT 0,
  verify_hash TEXT UNIQUE,
  verify_expires INTEGER,
  created INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS player_emails_by_address ON player_emails(address);
CREATE TABLE IF NOT EXISTS server_keys(
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS push_subscriptions(
  endpoint TEXT PRIMARY KEY,
  player_id INTEGER NOT NULL REFERENCES players(id),
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  created INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS push_subscriptions_by_player ON push_subscriptions(player_id);
CREATE TABLE IF NOT EXISTS notify_settings(
  player_id INTEGER PRIMARY KEY REFERENCES players(id),
  push INTEGER NOT NULL DEFAULT 1,
  email INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS game_mutes(
  player_id INTEGER NOT NULL REFERENCES players(id),
  game_id INTEGER NOT NULL REFERENCES games(id),
  PRIMARY KEY(player_id, game_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS game_webhooks(
  game_id INTEGER PRIMARY KEY REFERENCES games(id),
  url TEXT NOT NULL,
  format TEXT NOT NULL,
  set_by INTEGER NOT NULL REFERENCES players(id),
  disabled INTEGER NOT NULL DEFAULT 0);
)sql",
    // 5 (seats): who controls a seat other than its player: a computer player chosen at
    // creation (kind 'computer') or one that took an expelled player's seat ('takeover'), with
    // the level of docs/ai.md. Keyed by player, so seat renumbering at the start
    // does not matter.
    R"sql(
CREATE TABLE IF NOT EXISTS seat_controllers(
  game_id INTEGER NOT NULL REFERENCES games(id),
  player_id INTEGER NOT NULL REFERENCES players(id),
  kind TEXT NOT NULL,
  level TEXT NOT NULL,
  PRIMARY KEY(game_id, player_id)) WITHOUT ROWID;
)sql",
    // 6 (seats): game clocks (game_clock.h): the creator's options, the clock's state with
    // absolute times, its lines of the game log, and when something is next due (the sweeper).
    R"sql(
CREATE TABLE IF NOT EXISTS game_clocks(
  game_id INTEGER PRIMARY KEY REFERENCES games(id),
  options TEXT NOT NULL,
  state TEXT NOT NULL,
  log TEXT NOT NULL,
  due INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS game_clocks_by_due ON game_clocks(due);
)sql",
    // 7: who took each action for its seat when it was not the seat's player (ActionSource:
    // 'computer', 'standing_order', 'clock'); NULL for the player, and for every older action.
    R"sql(
ALTER TABLE actions ADD COLUMN source TEXT;
)sql",
    // 8 (standing orders): how a player decides ahead (engine/ai/standing_orders.h): his
    // account's orders (JSON, order -> choice; no row: the defaults), the orders a seat set for
    // one game (only those that differ; keyed by player like seat_controllers), and how long a
    // game waits for a decider who is there before it applies his order (seconds, 0: always
    // waits; chosen at game.create; no row: the default for its clock).
    R"sql(
CREATE TABLE IF NOT EXISTS standing_orders(
  player_id INTEGER PRIMARY KEY REFERENCES players(id),
  orders TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS game_standing_orders(
  game_id INTEGER NOT NULL REFERENCES games(id),
  player_id INTEGER NOT NULL REFERENCES players(id),
  orders TEXT NOT NULL,
  PRIMARY KEY(game_id, player_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS game_decision_grace(
  game_id INTEGER PRIMARY KEY REFERENCES games(id),
  grace_seconds INTEGER NOT NULL);
)sql",
    // 9 (lobby): "Games to watch" (lobby.running) and "your games" (my_games) read from
    // indexes, in time that does not grow with the number of games: the running public games
    // that allow spectators by last move, and each player's seats by game.
    R"sql(
CREATE INDEX IF NOT EXISTS games_to_watch ON games(COALESCE(last_move_at, created) DESC, id DESC)
  WHERE status = 'running' AND private = 0 AND spectators != 'none';
CREATE INDEX IF NOT EXISTS seats_by_player_game ON seats(player_id, game_id);
)sql",
    // 10 (notifications): a player's time zone (IANA name, from his browser) for the deadlines
    // in his notifications, and the daily digest instead of one mail per turn (the local date
    // of the last one). A table of its own, so that re-running the migration changes nothing.
    R"sql(
CREATE TABLE IF NOT EXISTS notify_preferences(
  player_id INTEGER PRIMARY KEY REFERENCES players(id),
  time_zone TEXT,
  digest INTEGER NOT NULL DEFAULT 0,
  last_digest TEXT);
)sql",
    // 11 (ratings, player_records.h): whether a game is rated (chosen at creation; after the
    // end: whether it counted), the ratings per player and player count (the ladders, by the
    // displayed rating), one history row per rated game and player, and the players' records
    // written when a game ends: one row per finished seat, played and won per player count and
    // victory condition, the public finished games under each filter combination (`facet`:
    // players*100 + condition*10 + rated, 0 for "any"), and who may see a player's profile.
    // Games finished before this migration get their records here (unrated, ranks from the
    // winners alone); INSERT OR IGNORE and IF NOT EXISTS let the step run again.
    R"sql(
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS ratings(
  player_id INTEGER NOT NULL REFERENCES players(id),
  players INTEGER NOT NULL,
  mu REAL NOT NULL,
  sigma REAL NOT NULL,
  rating REAL NOT NULL,
  games INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  PRIMARY KEY(player_id, players)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ratings_ladder ON ratings(players, rating DESC, player_id);
CREATE TABLE IF NOT EXISTS rating_history(
  player_id INTEGER NOT NULL REFERENCES players(id),
  game_id INTEGER NOT NULL REFERENCES games(id),
  players INTEGER NOT NULL,
  place INTEGER NOT NULL,
  mu_before REAL NOT NULL,
  sigma_before REAL NOT NULL,
  mu REAL NOT NULL,
  sigma REAL NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY(player_id, game_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS finished_seats(
  player_id INTEGER NOT NULL REFERENCES players(id),
  game_id INTEGER NOT NULL REFERENCES games(id),
  seat INTEGER NOT NULL,
  players INTEGER NOT NULL,
  ended_by TEXT NOT NULL,
  rated INTEGER NOT NULL,
  private INTEGER NOT NULL,
  place INTEGER NOT NULL,
  finished_at INTEGER NOT NULL,
  PRIMARY KEY(player_id, game_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS finished_seats_by_game ON finished_seats(game_id);
CREATE TABLE IF NOT EXISTS player_tallies(
  player_id INTEGER NOT NULL REFERENCES players(id),
  players INTEGER NOT NULL,
  ended_by TEXT NOT NULL,
  played INTEGER NOT NULL,
  won INTEGER NOT NULL,
  PRIMARY KEY(player_id, players, ended_by)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS finished_public(
  facet INTEGER NOT NULL,
  game_id INTEGER NOT NULL REFERENCES games(id),
  PRIMARY KEY(facet, game_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS profile_privacy(
  player_id INTEGER PRIMARY KEY REFERENCES players(id),
  visible_to TEXT NOT NULL);
INSERT OR IGNORE INTO finished_seats(player_id, game_id, seat, players, ended_by, rated,
                                     private, place, finished_at)
  SELECT s.player_id, g.id, s.seat, json_extract(g.options, '$.players'),
         COALESCE(json_extract(g.result, '$.ended_by'), 'standard'), 0, g.private,
         CASE WHEN EXISTS (SELECT 1 FROM json_each(g.result, '$.winners') w
                           WHERE w.value = s.seat) THEN 1 ELSE 2 END,
         COALESCE(g.last_move_at, g.created)
  FROM games g JOIN seats s ON s.game_id = g.id
  WHERE g.status = 'finished' AND json_valid(g.result) AND json_valid(g.options);
INSERT OR IGNORE INTO player_tallies(player_id, players, ended_by, played, won)
  SELECT player_id, players, ended_by, COUNT(*), SUM(place = 1) FROM finished_seats
  GROUP BY player_id, players, ended_by;
INSERT OR IGNORE INTO finished_public(facet, game_id)
  SELECT p.part * f.players + c.part * (1 + CASE f.ended_by WHEN 'standard' THEN 0
           WHEN 'shorter' THEN 1 WHEN 'race' THEN 2 WHEN 'doomsday' THEN 3 ELSE 4 END) * 10
           + r.part * 2, f.game_id
  FROM (SELECT DISTINCT game_id, players, ended_by FROM finished_seats WHERE private = 0) f,
       (SELECT 0 AS part UNION ALL SELECT 100) p, (SELECT 0 AS part UNION ALL SELECT 1) c,
       (SELECT 0 AS part UNION ALL SELECT 1) r;
)sql",
    // 12 (server texts): the language a player reads (a catalog's, web-client/i18n/<language>
    // .json), told by his browser; NULL: not known, English. His e-mails and pushes, and the
    // webhooks he set up, are written in it.
    R"sql(
ALTER TABLE players ADD COLUMN language TEXT;
)sql",
    // 13 (leaving): players who deleted their accounts (account_deletion.h). The players row
    // stays (seats, actions and chat lines refer to it) with an empty name, which no living
    // player can have (display_name.h); this table says when. His chat lines by player: the
    // export reads them and the deletion blanks them without walking every game's chat.
    // IF NOT EXISTS: runs again.
    R"sql(
CREATE TABLE IF NOT EXISTS former_players(
  player_id INTEGER PRIMARY KEY REFERENCES players(id),
  deleted_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS chat_by_player ON chat(player_id, id);
)sql",
    // 14 (friends): who follows whom (one-sided, friends.h), indexed both ways (my friends; how
    // many follow me), and the invitations of friends into games (one per invitee and game; an
    // inviter's of the last hour are counted for his budget; by invitee: an account's deletion).
    R"sql(
CREATE TABLE IF NOT EXISTS follows(
  follower INTEGER NOT NULL REFERENCES players(id),
  followee INTEGER NOT NULL REFERENCES players(id),
  since INTEGER NOT NULL,
  PRIMARY KEY(follower, followee)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS follows_by_followee ON follows(followee, follower);
CREATE TABLE IF NOT EXISTS friend_invites(
  game_id INTEGER NOT NULL REFERENCES games(id),
  invitee INTEGER NOT NULL REFERENCES players(id),
  inviter INTEGER NOT NULL REFERENCES players(id),
  at INTEGER NOT NULL,
  PRIMARY KEY(game_id, invitee)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS friend_invites_by_inviter ON friend_invites(inviter, at);
CREATE INDEX IF NOT EXISTS friend_invites_by_invitee ON friend_invites(invitee);
)sql",
    // 15 (chat comforts): what each player has read of each game's players' chat (the id of the
    // last line he saw; it only moves forward), the players each player muted (their chat is
    // never sent to him), and the lines an operator hid (never sent again). The partial index
    // walks a game's players' chat after a mark without the spectators' lines. The chat
    // written before counts as read.
    R"sql(
CREATE TABLE IF NOT EXISTS chat_read(
  player_id INTEGER NOT NULL REFERENCES players(id),
  game_id INTEGER NOT NULL REFERENCES games(id),
  up_to INTEGER NOT NULL,
  PRIMARY KEY(player_id, game_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS player_mutes(
  player_id INTEGER NOT NULL REFERENCES players(id),
  muted_id INTEGER NOT NULL REFERENCES players(id),
  at INTEGER NOT NULL,
  PRIMARY KEY(player_id, muted_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS player_mutes_by_muted ON player_mutes(muted_id);
CREATE TABLE IF NOT EXISTS chat_hidden(
  chat_id INTEGER PRIMARY KEY REFERENCES chat(id),
  at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS chat_players_by_game ON chat(game_id, id) WHERE seat IS NOT NULL;
INSERT OR IGNORE INTO chat_read(player_id, game_id, up_to)
  SELECT s.player_id, s.game_id, (SELECT MAX(c.id) FROM chat c WHERE c.game_id = s.game_id)
  FROM seats s WHERE EXISTS (SELECT 1 FROM chat c WHERE c.game_id = s.game_id);
)sql",
    // 16 (look back): a finished game's analysis (game_analysis.h), computed once and kept:
    // the answer of GET /api/games/<id>/analysis, the settings it was computed with and the
    // CPU time it took. IF NOT EXISTS: runs again.
    R"sql(
CREATE TABLE IF NOT EXISTS game_analyses(
  game_id INTEGER PRIMARY KEY REFERENCES games(id),
  settings TEXT NOT NULL,
  result TEXT NOT NULL,
  cpu_ms INTEGER NOT NULL,
  at INTEGER NOT NULL);
)sql",
    // 17 (fair play v2): each game's random scheme (engine/rng.h, docs/fair-play.md): 1, the
    // single stream, for every game stored before; 2, the three counter-based streams, for the
    // games created from now on (Store::create_game writes it). A game replays, restores and
    // is recorded with its own scheme.
    R"sql(
ALTER TABLE games ADD COLUMN random_scheme INTEGER NOT NULL DEFAULT 1;
)sql",
    // 18 (contributions): the players' part of fair play (docs/fair-play.md, fair_play.h): each
    // human seat's contribution commitment and, once revealed, its contribution (never sent to
    // anyone before the game is over), and whether the seat is the server operator's (--operator);
    // by player, since seats are renumbered at the start. A game whose seats are final waits in
    // reveal_rounds until every seat has revealed, or the deadline removes the silent ones.
    // IF NOT EXISTS: runs again.
    R"sql(
CREATE TABLE IF NOT EXISTS seat_fair_play(
  game_id INTEGER NOT NULL REFERENCES games(id),
  player_id INTEGER NOT NULL REFERENCES players(id),
  commitment TEXT,
  contribution TEXT,
  host INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY(game_id, player_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS reveal_rounds(
  game_id INTEGER PRIMARY KEY REFERENCES games(id),
  deadline INTEGER NOT NULL);
)sql",
    // 19 (several servers): which server process serves each game (game_leases.h): its owner's
    // id and URL, and when the lease ends (ms since the epoch; 0 once handed over). No foreign
    // key: a lease is about a process, not part of the game's record. IF NOT EXISTS: runs again.
    R"sql(
CREATE TABLE IF NOT EXISTS game_leases(
  game_id INTEGER PRIMARY KEY,
  owner TEXT NOT NULL,
  url TEXT NOT NULL,
  expires INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS game_leases_by_owner ON game_leases(owner, game_id);
)sql",
};
static_assert(std::size(kMigrations) == Store::kSchemaVersion);

}  // namespace

const char* schema_migration(int version) {
  if (version < 1 || version > Store::kSchemaVersion) {
    throw std::out_of_range("no migration to schema version " + std::to_string(version));
  }
  return kMigrations[version - 1];
}

}  // namespace viktory::server
