// The checks of docs/fair-play.md, "Checking a game", in that order; the first failure ends
// the check and is reported in words a player understands (names, hex labels, die faces).
#include "verify.h"

#include "game.h"
#include "json_detail.h"

namespace viktory::protocol {
namespace {

class Checker {
 public:
  Checker(const GameRecord& record, VerifyReport& report)
      : record_(record),
        report_(report),
        board_(Board::for_radius(
            board_radius_for(record.options.players, record.options.board_hexes))) {}

  // Each returns false after setting report_.failure.
  bool check_commitments();
  bool replay();
  bool check_witness(const Witness& witness);

 private:
  // A seat by number and name, "seat 1 (Bob)"; by number alone when its name is empty (a
  // player who deleted his account) or for no seat of the game.
  std::string name(int player) const {
    std::string out = "seat " + std::to_string(player);
    if (player >= 0 && player < static_cast<int>(record_.seats.size()) &&
        !record_.seats[player].name.empty()) {
      out += " (" + record_.seats[player].name + ")";
    }
    return out;
  }
  std::string seat_words(int seat) const { return name(seat); }
  std::string label(int hex) const {
    return hex >= 0 && hex < board_.size() ? board_.label(hex) : "hex " + std::to_string(hex);
  }
  static std::string faces(const std::vector<int>& dice) {
    std::string out;
    for (int d : dice) out += (out.empty() ? "" : ", ") + std::to_string(d);
    return out;
  }
  static std::string_view purpose_words(RollPurpose p) {
    switch (p) {
      case RollPurpose::kBombard:
        return "a Bombard Attack";
      case RollPurpose::kPreBattleFire:
        return "the pre-battle Artillery fire";
      case RollPurpose::kAttackerFire:
        return "the attacker's fire";
      case RollPurpose::kDefenderFire:
        return "the defender's fire";
      case RollPurpose::kDoomsday:
        return "the Doomsday Clock";
      case RollPurpose::kDefenderPreFire:
        return "the defender's pre-battle Artillery fire";
    }
    return "a roll";
  }
  std::string describe(const RecordedRoll& r) const {
    return name(r.player) + " rolled " + faces(r.dice) + " for " +
           std::string(purpose_words(r.purpose)) + " at " + label(r.hex);
  }
  std::string describe(const RecordedTile& t) const {
    if (t.by == kNoPlayer) {
      return label(t.hex) + " was laid face up as " + std::string(to_string(t.terrain));
    }
    return label(t.hex) + " was revealed as " + std::string(to_string(t.terrain)) + " by " +
           name(t.by);
  }
  std::string describe(const RecordedBalance& b) const {
    return name(b.player) + " drew " + std::string(to_string(b.terrain)) +
           " for Exploration Balancing [15.3]";
  }
  // "seat 0 (Alice)'s roll for the attacker's fire at E4", "the tile at E4", ...
  std::string outcome_words(const RecordedRoll& r) const {
    return name(r.player) + "'s roll for " + std::string(purpose_words(r.purpose)) + " at " +
           label(r.hex);
  }
  std::string outcome_words(const RecordedTile& t) const { return "the tile at " + label(t.hex); }
  std::string outcome_words(const RecordedBalance& b) const {
    return name(b.player) + "'s balancing draw [15.3]";
  }
  static std::string_view stream_words(const RecordedRoll&) { return "dice"; }
  static std::string_view stream_words(const RecordedTile&) { return "tiles"; }
  static std::string_view stream_words(const RecordedBalance&) { return "tiles"; }
  static bool same_core(const RecordedRoll& a, const RecordedRoll& b) {
    return a.player == b.player && a.purpose == b.purpose && a.hex == b.hex && a.dice == b.dice;
  }
  static bool same_core(const RecordedTile& a, const RecordedTile& b) {
    return a.hex == b.hex && a.terrain == b.terrain && a.by == b.by;
  }
  static bool same_core(const RecordedBalance& a, const RecordedBalance& b) {
    return a.player == b.player && a.terrain == b.terrain;
  }
  // Version 2: the draw number and the position of an outcome whose content matched.
  template <typename Outcome>
  bool same_numbers(const std::string& where, const Outcome& claimed, const Outcome& actual,
                    std::string_view stream, std::string_view actual_says) {
    if (claimed.draw != actual.draw) {
      return fail(where + ": the record says " + outcome_words(claimed) + " took draw " +
                  std::to_string(claimed.draw) + " of the " + std::string(stream) + " stream; " +
                  std::string(actual_says) + " draw " + std::to_string(actual.draw));
    }
    if (claimed.at != actual.at) {
      return fail(where + ": the record puts " + outcome_words(claimed) + " at position " +
                  std::to_string(claimed.at) +
                  " of the action's random outcomes; the engine made " + "it at position " +
                  std::to_string(actual.at));
    }
    return true;
  }
  bool v2() const { return record_.scheme == RandomScheme::kStreams; }
  std::string where(const RecordedAction& a) const {
    return "action " + std::to_string(a.seq) + " (turn " + std::to_string(a.turn) + ")";
  }
  bool fail(std::string message) {
    report_.failure = std::move(message);
    return false;
  }

  // `claimed` (the record) against `actual` (the replay, or what a client saw), in order.
  bool same_rolls(const std::string& where, const std::vector<RecordedRoll>& claimed,
                  const std::vector<RecordedRoll>& actual, std::string_view actual_says);
  bool same_tiles(const std::string& where, const std::vector<RecordedTile>& claimed,
                  const std::vector<RecordedTile>& actual, std::string_view actual_says);
  bool same_balance(const std::string& where, const std::vector<RecordedBalance>& claimed,
                    const std::vector<RecordedBalance>& actual);
  bool check_setup(const GameState& state, const SetupOutcomes& setup);
  // `numbers`: compare draw numbers and positions too (a version-2 record against its replay).
  bool numbers_ = false;

  const GameRecord& record_;
  VerifyReport& report_;
  const Board& board_;
};

std::string short_hex(const fair::Digest& d) { return fair::to_hex(d).substr(0, 16) + "..."; }

bool Checker::same_rolls(const std::string& where, const std::vector<RecordedRoll>& claimed,
                         const std::vector<RecordedRoll>& actual, std::string_view actual_says) {
  const std::string says(actual_says);
  for (std::size_t i = 0; i < std::max(claimed.size(), actual.size()); ++i) {
    if (i >= actual.size()) {
      return fail(where + ": the record says " + describe(claimed[i]) + "; " + says +
                  " no such roll");
    }
    if (i >= claimed.size()) {
      return fail(
          where + ": the record says " +
          (claimed.empty() ? std::string("no dice were rolled") : "nothing about a further roll") +
          "; " + says + " " + describe(actual[i]));
    }
    const RecordedRoll& c = claimed[i];
    const RecordedRoll& a = actual[i];
    if (same_core(c, a)) {
      if (numbers_ && !same_numbers(where, c, a, stream_words(c), says)) return false;
      continue;
    }
    const bool only_faces = c.player == a.player && c.purpose == a.purpose && c.hex == a.hex;
    return fail(where + ": the record says " + describe(c) + "; " + says + " " +
                (only_faces ? faces(a.dice) : describe(a)));
  }
  return true;
}

bool Checker::same_tiles(const std::string& where, const std::vector<RecordedTile>& claimed,
                         const std::vector<RecordedTile>& actual, std::string_view actual_says) {
  const std::string says(actual_says);
  for (std::size_t i = 0; i < std::max(claimed.size(), actual.size()); ++i) {
    if (i >= actual.size()) {
      return fail(where + ": the record says " + describe(claimed[i]) + "; " + says +
                  " no such tile");
    }
    if (i >= claimed.size()) {
      return fail(
          where + ": the record says " +
          (claimed.empty() ? std::string("no tile was revealed") : "nothing about a further tile") +
          "; " + says + " " + describe(actual[i]));
    }
    const RecordedTile& c = claimed[i];
    const RecordedTile& a = actual[i];
    if (same_core(c, a)) {
      if (numbers_ && !same_numbers(where, c, a, stream_words(c), says)) return false;
      continue;
    }
    const bool only_terrain = c.hex == a.hex && c.by == a.by;
    return fail(where + ": the record says " + describe(c) + "; " + says + " " +
                (only_terrain ? std::string(to_string(a.terrain)) : describe(a)));
  }
  return true;
}

bool Checker::same_balance(const std::string& where, const std::vector<RecordedBalance>& claimed,
                           const std::vector<RecordedBalance>& actual) {
  for (std::size_t i = 0; i < std::max(claimed.size(), actual.size()); ++i) {
    if (i >= actual.size()) {
      return fail(where + ": the record says " + describe(claimed[i]) +
                  "; the seed gives no balancing draw");
    }
    if (i >= claimed.size()) {
      return fail(where + ": the record says nothing about a balancing draw; the seed gives: " +
                  describe(actual[i]));
    }
    if (!same_core(claimed[i], actual[i])) {
      return fail(where + ": the record says " + describe(claimed[i]) + "; the seed gives " +
                  std::string(to_string(actual[i].terrain)));
    }
    if (!same_numbers(where, claimed[i], actual[i], "tiles", "the seed gives")) return false;
  }
  return true;
}

bool Checker::check_setup(const GameState& state, const SetupOutcomes& setup) {
  if (v2() && record_.seating != setup.seating) {
    auto words = [&](const std::vector<int>& order) {
      std::string out;
      for (int p : order) out += (out.empty() ? "" : ", ") + name(p);
      return out;
    };
    return fail("setup: the record says the seating [15.2] is " + words(record_.seating) +
                "; the seed gives " + words(setup.seating));
  }
  if (state.first_player != record_.first_player) {
    return fail("setup: the record says " + name(record_.first_player) +
                " moves first; the seed gives " + name(state.first_player));
  }
  if (v2() && record_.first_player_draw != setup.first_player_draw) {
    return fail("setup: the record says the first player took draw " +
                std::to_string(record_.first_player_draw) +
                " of the setup stream; the seed "
                "gives draw " +
                std::to_string(setup.first_player_draw));
  }
  const auto tiles = v2() ? setup.tiles : setup_tiles_of(state);
  if (!same_tiles("setup", record_.setup_tiles, tiles, "the seed gives")) return false;
  report_.tiles += static_cast<int>(tiles.size());
  return true;
}

bool Checker::check_commitments() {
  if (!record_.reveal) {
    return fail("the secret is not revealed: a game can be checked once it is over");
  }
  const RecordReveal& reveal = *record_.reveal;
  if (!record_.commitment) {
    if (reveal.legacy_seed) return true;  // reported after the replay
    return fail("the record has no commitment: nothing shows the secret was fixed in advance");
  }
  if (!reveal.secret || !reveal.salt) {
    return fail("the record has a commitment but reveals no secret and salt");
  }
  const fair::Digest computed = fair::commitment(*reveal.salt, *reveal.secret);
  if (computed != *record_.commitment) {
    return fail("the revealed secret and salt do not match the commitment: SHA-256 gives " +
                short_hex(computed) + ", the record commits to " + short_hex(*record_.commitment));
  }
  for (std::size_t i = 0; i < record_.seats.size(); ++i) {
    const RecordSeat& seat = record_.seats[i];
    const int index = static_cast<int>(i);
    if (seat.host) {
      report_.notes.push_back(seat_words(index) +
                              " is the server's operator: he could read the hidden tiles from "
                              "his database while the game ran");
    }
    if (seat.computer && !seat.contribution_commitment && !seat.contribution) {
      // The server plays it: a contribution of its own would be the host's (docs/fair-play.md).
      report_.notes.push_back(seat_words(index) + " is a computer player: it contributes nothing");
      continue;
    }
    if (!seat.contribution_commitment) {
      // A server that does not run the players' commit-reveal round: the seed is the
      // committed secret's alone. Still fixed before the game, but the host could have tried
      // secrets until one suited him (docs/fair-play.md); the report says so.
      if (seat.contribution) {
        return fail(seat_words(index) + " has a contribution but no contribution commitment");
      }
      report_.notes.push_back(seat_words(index) +
                              " made no contribution: the seed depends on the server's secret "
                              "only, which the host could have chosen among many");
      continue;
    }
    if (!seat.contribution) {
      report_.notes.push_back(
          seat_words(index) +
          " did not reveal a contribution: the seed depends on the others only");
      continue;
    }
    if (fair::contribution_commitment(*seat.contribution) != *seat.contribution_commitment) {
      return fail(seat_words(index) + ": the contribution does not match its commitment");
    }
  }
  return true;
}

bool Checker::replay() {
  const auto seed = record_seed(record_);
  if (!seed) return fail("the record reveals no seed");
  report_.seed = seed;
  numbers_ = v2();
  SetupDraws drawn;
  GameState state = new_game(record_.options, *seed, record_.scheme, &drawn);
  // Version 2: the draw number of each tile by hex, for a re-reveal's (game_record.h).
  std::vector<std::int64_t> tile_draws(state.hexes.size(), -1);
  if (!check_setup(state, setup_outcomes_of(state, drawn, tile_draws))) return false;

  std::vector<Event> events;
  for (const RecordedAction& entry : record_.actions) {
    if (entry.turn != state.turn) {
      return fail("action " + std::to_string(entry.seq) + ": the record says it was made in turn " +
                  std::to_string(entry.turn) + "; the game is in turn " +
                  std::to_string(state.turn));
    }
    events.clear();
    if (auto error = apply_in_place(state, entry.action, &events)) {
      return fail(where(entry) + ": the engine refuses " + name(entry.action.player) + "'s " +
                  std::string(to_string(entry.action.kind)) + ": " + error->message);
    }
    Outcomes outcomes;
    if (v2()) {
      outcomes = outcomes_of(events, tile_draws);
    } else {
      outcomes.dice = rolls_of(events);
      outcomes.tiles = tiles_of(events);
    }
    const auto& rolls = outcomes.dice;
    const auto& tiles = outcomes.tiles;
    if (!same_rolls(where(entry), entry.dice, rolls, "the seed gives")) return false;
    if (!same_tiles(where(entry), entry.tiles, tiles, "the seed gives")) return false;
    if (v2() && !same_balance(where(entry), entry.balance, outcomes.balance)) return false;
    ++report_.actions;
    report_.rolls += static_cast<int>(rolls.size());
    for (const RecordedRoll& r : rolls) report_.dice += static_cast<int>(r.dice.size());
    report_.tiles += static_cast<int>(tiles.size());
  }

  if (state.phase != Phase::kGameOver) {
    return fail("the record ends after action " + std::to_string(record_.actions.size()) +
                ", but the game is not over (" + name(decider(state)) + " must decide)");
  }
  auto words = [&](const std::vector<int>& winners, VictoryCondition by) {
    std::string names;
    for (int w : winners) names += (names.empty() ? "" : ", ") + name(w);
    return (names.empty() ? std::string("nobody") : names) + " (" + std::string(to_string(by)) +
           ")";
  };
  if (!record_.result) {
    return fail("the game is over, won by " + words(state.winners, state.ended_by) +
                ", but the record has no result");
  }
  if (record_.result->winners != state.winners || record_.result->ended_by != state.ended_by) {
    return fail("the record says the game was won by " +
                words(record_.result->winners, record_.result->ended_by) + "; the game gives " +
                words(state.winners, state.ended_by));
  }
  return true;
}

bool Checker::check_witness(const Witness& w) {
  numbers_ = false;  // a client never sees draw numbers or positions
  const int seats = static_cast<int>(record_.seats.size());
  if (w.seat && *w.seat >= seats) {
    return fail("the witness is for seat " + std::to_string(*w.seat) + "; the game has " +
                std::to_string(seats) + " seats");
  }
  if (w.commitment) {
    if (!record_.commitment) {
      return fail("your client saw a commitment, but the record has none");
    }
    if (*w.commitment != *record_.commitment) {
      return fail("the record's commitment (" + short_hex(*record_.commitment) +
                  ") is not the one your client saw at the start (" + short_hex(*w.commitment) +
                  ")");
    }
  }
  if (w.contribution_commitments) {
    const auto& seen = *w.contribution_commitments;
    if (static_cast<int>(seen.size()) != seats) {
      return fail("your client saw " + std::to_string(seen.size()) +
                  " contribution commitments; the record has " + std::to_string(seats) + " seats");
    }
    for (int i = 0; i < seats; ++i) {
      if (record_.seats[i].contribution_commitment != seen[i]) {
        return fail(seat_words(i) +
                    ": the record's contribution commitment is not the one your client saw");
      }
    }
  }
  if (w.contribution) {
    if (!w.seat) return fail("the witness has a contribution but no seat");
    const auto& recorded = record_.seats[*w.seat].contribution;
    if (!recorded) {
      return fail("the record says " + seat_words(*w.seat) +
                  " revealed no contribution; your client revealed one");
    }
    if (*recorded != *w.contribution) {
      return fail("the record's contribution for " + seat_words(*w.seat) +
                  " is not the one your client drew");
    }
  }
  if (w.first_player && *w.first_player != record_.first_player) {
    return fail("setup: the record says " + name(record_.first_player) +
                " moves first; your client saw " + name(*w.first_player));
  }
  const int count = static_cast<int>(record_.actions.size());
  for (const WitnessEntry& e : w.seen) {
    if (e.seq > count) {
      return fail("your client saw action " + std::to_string(e.seq) + "; the record has only " +
                  std::to_string(count) + " actions");
    }
    const RecordedAction& entry = record_.actions[static_cast<std::size_t>(e.seq - 1)];
    if (!same_rolls(where(entry), entry.dice, e.dice, "your client saw")) return false;
    for (const RecordedTile& seen : e.tiles) {
      const RecordedTile* match = nullptr;
      for (const RecordedTile& t : entry.tiles) {
        if (t.hex == seen.hex) match = &t;
      }
      if (!match) {
        return fail(where(entry) + ": the record says nothing about " + label(seen.hex) +
                    "; your client saw " + describe(seen));
      }
      if (!same_core(*match, seen)) {
        return fail(where(entry) + ": the record says " + describe(*match) + "; your client saw " +
                    describe(seen));
      }
    }
  }
  report_.witness_checked = true;
  return true;
}

}  // namespace

std::string VerifyReport::summary() const {
  if (!verified) return "NOT verified: " + failure;
  std::string out = "verified: " + std::to_string(actions) + " actions, " + std::to_string(rolls) +
                    " rolls (" + std::to_string(dice) + " dice), " + std::to_string(tiles) +
                    " tiles";
  if (seed) out += "; seed " + detail::u64_to_hex(*seed);
  if (witness_checked) out += "; matches what your client saw";
  return out;
}

VerifyReport verify_record(const GameRecord& record, const Witness* witness) {
  VerifyReport report;
  Checker checker(record, report);
  if (!checker.check_commitments() || !checker.replay()) return report;
  if (witness && !checker.check_witness(*witness)) return report;
  if (!record.commitment) {
    report.failure = "the game was created before fair play: the replay matches seed " +
                     detail::u64_to_hex(*report.seed) +
                     ", but nothing shows the seed was fixed before the game";
    return report;
  }
  report.verified = true;
  return report;
}

nlohmann::json report_to_json(const VerifyReport& r) {
  nlohmann::json out = {{"verified", r.verified}, {"summary", r.summary()},
                        {"notes", r.notes},       {"actions", r.actions},
                        {"rolls", r.rolls},       {"dice", r.dice},
                        {"tiles", r.tiles},       {"witness_checked", r.witness_checked}};
  if (!r.verified) out["failure"] = r.failure;
  if (r.seed) out["seed"] = detail::u64_to_hex(*r.seed);
  return out;
}

}  // namespace viktory::protocol
