#include "seat_controllers.h"

#include <spdlog/spdlog.h>

#include "computer_caps.h"
#include "game.h"
#include "view.h"

namespace viktory::server {

bool valid_computer_level(const std::string& level) {
  // The passive computer is the guided first game's only (server/games/tutorial.h).
  return ai::level_from_string(level).has_value() && level != ai::to_string(ai::Level::kPassive);
}

SeatControllers::SeatControllers(ComputerOptions options, Apply apply, const ComputerCaps* caps)
    : options_(std::move(options)),
      apply_(std::move(apply)),
      caps_(caps),
      pool_(std::make_unique<ComputerPool>(options_.pool)) {}

SeatControllers::~SeatControllers() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (auto& [game, pending] : pending_) pending.flags->cancel_now();
  }
  pool_.reset();  // drops what waits, stops what runs (cancelled: nothing is applied), joins
}

int SeatControllers::seat_to_act(const GameRoom& room) {
  if (room.status() != GameStatus::kRunning || room.state() == nullptr) return -1;
  if (room.state()->phase == Phase::kGameOver) return -1;
  return decider(*room.state());
}

std::optional<ai::Level> SeatControllers::computer_level(const GameRoom& room, int seat) {
  for (const SeatRecord& s : room.record().seats) {
    if (s.seat == seat && !s.computer.empty()) return ai::level_from_string(s.computer);
  }
  return std::nullopt;
}

void SeatControllers::on_room_changed(GameRoom& room) {
  const std::int64_t game_id = room.id();
  const int seat = seat_to_act(room);
  const std::optional<ai::Level> level =
      seat >= 0 ? computer_level(room, seat) : std::optional<ai::Level>();
  std::lock_guard lock(mutex_);
  if (stopping_) return;
  auto it = pending_.find(game_id);
  if (it != pending_.end()) {
    if (level && it->second.seq == room.seq() && it->second.seat == seat) return;  // under way
    it->second.flags->cancel_now();  // the game moved on: that decision is moot
    pending_.erase(it);
  }
  paused_.erase(game_id);
  if (seat < 0) histories_.erase(game_id);  // over (or not running): nothing more to decide
  if (!level) return;

  // Whose computer time this is: the humans who play, else the creator (who chose a game of
  // computers only); and the address the game was created from, when known.
  std::vector<std::string> owners;
  for (const SeatRecord& s : room.record().seats) {
    if (s.computer.empty()) owners.push_back("player:" + std::to_string(s.player_id));
  }
  const bool human_plays = !owners.empty();
  if (!human_plays) owners.push_back("player:" + std::to_string(room.record().creator.id));
  if (caps_ != nullptr) {
    if (std::string address = caps_->address_of(game_id); !address.empty()) {
      owners.push_back("address:" + address);
    }
  }
  // Computers playing for nobody: paused until someone watches (on_watched).
  if (!human_plays && !room.watched()) {
    paused_.insert(game_id);
    return;
  }

  auto job = std::make_shared<Job>();
  job->game_id = game_id;
  job->seq = room.seq();
  job->seat = seat;
  job->level = *level;
  for (const SeatRecord& s : room.record().seats) {
    if (s.seat == seat) job->player_id = s.player_id;
  }
  job->view = view_for(*room.state(), seat);
  job->legal = legal_actions(*room.state(), seat);
  job->needs_history = room.record().options.independent_exploration;
  if (job->needs_history) {
    job->options = room.record().options;
    job->seed = room.record().seed;
    job->random_scheme = room.record().random_scheme;
    job->actions.reserve(room.actions().size());
    for (const ActionRecord& a : room.actions()) job->actions.push_back(a.action);
  }
  job->flags = std::make_shared<JobFlags>();
  pending_[game_id] = Pending{job->seq, seat, job->flags};

  ComputerPool::Job work;
  work.game_id = game_id;
  work.kind =
      human_plays && !over_caps_.count(game_id) ? JobClass::kInteractive : JobClass::kBackground;
  work.owners = std::move(owners);
  work.budget = options_.search_budget;
  work.flags = job->flags;
  work.run = [this, job] {
    try {
      decide(*job);
    } catch (const std::exception& e) {
      // A bug in the bot must not take the server down; the seat waits (and the log says why).
      spdlog::error("computer_failed game={} seq={} seat={} error=\"{}\"", job->game_id, job->seq,
                    job->seat, e.what());
    }
  };
  pool_->submit(std::move(work));
}

void SeatControllers::on_watched(GameRoom& room) {
  {
    std::lock_guard lock(mutex_);
    if (!paused_.count(room.id())) return;
  }
  on_room_changed(room);
}

std::string SeatControllers::metrics() const {
  const ComputerPool::Stats stats = pool_->stats();
  std::string out;
  const auto metric = [&out](const char* name, const char* type, const char* help,
                             std::int64_t value) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n" +
           name + " " + std::to_string(value) + "\n";
  };
  metric("viktory_computer_workers", "gauge", "Worker threads for computer decisions.",
         pool_->threads());
  metric("viktory_computer_decisions_total", "counter", "Computer decisions handed to be applied.",
         decisions_.load());
  metric("viktory_computer_jobs_hurried_total", "counter",
         "Computer searches cut short for a lighter owner's decision.", stats.hurried);
  metric("viktory_computer_jobs_waiting", "gauge", "Computer decisions waiting for a worker.",
         static_cast<std::int64_t>(stats.waiting));
  metric("viktory_computer_games_paused", "gauge",
         "Games of computers only paused because nobody watches them.",
         static_cast<std::int64_t>(paused()));
  return out;
}

void SeatControllers::set_over_caps(std::set<std::int64_t> games) {
  std::lock_guard lock(mutex_);
  over_caps_ = std::move(games);
}

std::size_t SeatControllers::paused() const {
  std::lock_guard lock(mutex_);
  return paused_.size();
}

ai::PublicHistory SeatControllers::history_for(Job& job) {
  std::shared_ptr<History> history;
  {
    std::lock_guard lock(mutex_);
    auto& slot = histories_[job.game_id];
    if (!slot) slot = std::make_shared<History>();
    history = slot;
  }
  std::lock_guard lock(history->mutex);
  const std::size_t players = static_cast<std::size_t>(job.options.players);
  // An undo (or anything else) that changed the past: start again from the beginning.
  bool same_past = history->state && history->applied.size() <= job.actions.size();
  for (std::size_t i = 0; same_past && i < history->applied.size(); ++i) {
    same_past = history->applied[i] == job.actions[i];
  }
  if (!same_past) {
    history->state = new_game(job.options, job.seed, job.random_scheme);
    history->applied.clear();
    history->seats.assign(players, {});
  }
  for (std::size_t i = history->applied.size(); i < job.actions.size(); ++i) {
    if (job.flags->cancel.load()) break;
    std::vector<Event> events;
    if (auto error = apply_in_place(*history->state, job.actions[i], &events)) {
      throw std::runtime_error("stored action " + std::to_string(i + 1) +
                               " no longer applies: " + error->code);
    }
    history->applied.push_back(job.actions[i]);
    for (std::size_t seat = 0; seat < players; ++seat) {
      for (Event& e : filter_events_for(*history->state, events, static_cast<int>(seat))) {
        history->seats[seat].events.push_back(std::move(e));
      }
    }
  }
  return history->seats[static_cast<std::size_t>(job.seat)];
}

void SeatControllers::decide(Job& job) {
  const ai::PublicHistory history = job.needs_history ? history_for(job) : ai::PublicHistory{};
  if (job.flags->cancel.load()) return;
  ai::BotConfig config;
  config.level = job.level;
  // The bot's own randomness, from public facts only (never the game's seed).
  config.seed = static_cast<std::uint64_t>(job.game_id) * 0x9E3779B97F4A7C15ULL ^
                (static_cast<std::uint64_t>(job.seq) << 8) ^ static_cast<std::uint64_t>(job.seat);
  config.time_budget = options_.search_budget;
  // Set by the pool to hurry the search or when its budget is spent (the best so far is
  // applied), and with `cancel` when the game moved on (nothing is applied).
  config.cancel = &job.flags->stop;
  const Action action = ai::choose_action(job.view, job.legal, history, config);
  if (job.flags->cancel.load()) return;
  ++decisions_;
  // The decision's cancel flag is the job's (an aliasing pointer: it keeps the flags alive).
  apply_(ComputerDecision{job.game_id, job.seq, job.player_id, action,
                          std::shared_ptr<std::atomic<bool>>(job.flags, &job.flags->cancel)});
}

}  // namespace viktory::server
