// Events: what an action caused, in order, for logs, animations and replays.
//
// Events leave the engine only through filter_events_for (view.h): a kTileRevealed event
// carries terrain and is delivered only to viewers who now know that hex.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "fire.h"
#include "types.h"

namespace viktory {

enum class EventKind : std::uint8_t {
  kTurnStarted,       // player; value = turn number
  kPhaseChanged,      // player; value = (int)Phase
  kTileRevealed,      // hex, terrain; player = who revealed it
  kCapitalPlaced,     // player, hex
  kTownBuilt,         // player, hex
  kCityUpgraded,      // player, hex
  kUnitGained,        // player, unit, unit_type (added to the Reserve) [10.3]
  kUnitMoved,         // player, unit, from_hex -> hex; value = 1 for a road move
  kUnitEmbarked,      // player, unit, other_unit = frigate, from_hex
  kUnitDisembarked,   // player, unit, other_unit = frigate, hex
  kDiceRolled,        // player (who rolled), hex, dice, value = (int)RollPurpose; fire
  kBombarded,         // player, unit, from_hex -> hex
  kBattleStarted,     // player = attacker, other_player = defender, hex
  kUnitHit,           // player = owner, unit, unit_type, hex; value = 1 when chosen by the firer
  kUnitLost,          // player = owner, unit, unit_type, hex: to the Reserve [10.2]
  kUnitRetreated,     // player, unit, from_hex -> hex
  kBattleEnded,       // hex; player = winner (kNoPlayer: defender held), other_player = loser
  kTownCaptured,      // player = new owner, other_player = old owner, hex; value = 1 City
  kUnitEliminated,    // player, unit, unit_type: returned to stock [10.2]
  kUnitPlaced,        // player, unit, unit_type, hex [13.0]
  kCapitalLost,       // player = capital owner, other_player = captor, hex [14.0]
  kCapitalRetaken,    // player, hex
  kPlayerEliminated,  // player
  kPlayerConceded,    // player
  kDoomsdayStarted,   // hex of the first captured City [5.5]
  kDoomsdayCoin,      // player: a coin now lies next to his Capital [5.5]
  kGameOver,          // winners in dice (player indices); value = (int)VictoryCondition
  kLandDrawn,         // player, terrain: [15.3] the land tile he may put on a water hex
  kTileReplaced,      // player, hex, terrain: [15.3] the water there became this land tile
  kWaterKept,         // player: [15.3] he kept the water; the land tile went back unused
  kDiceAveraged,      // player (firer), hex, value = pairs not rolled = hits, fire [15.4]
  kTownRemoved,       // player, hex; value = 1 City [15.5]
  kTownRelocated,     // player, from_hex -> hex; value = 1 City [15.5]
  kSubjugated,        // player = new Vassal, other_player = his Ruler, hex = Capital [15.61]
  kAllianceBroken,    // player = freed Vassal, other_player = former Ruler; value = why [15.65]
  kUnitWithdrawn,     // player, unit, from_hex -> hex [15.62]
  kUnitRedeployed,    // player, unit, unit_type, from_hex -> hex (house rule Redeployment)
};

// Why a Vassal went free (kAllianceBroken.value) [15.65].
enum class AllianceEnd : std::uint8_t {
  kAttackedByRuler = 1,  // his Ruler attacked him in Battle or by Bombardment (15.65 #1)
  kRulerLostCapital,     // his Ruler lost his own Capital (15.65 #2)
  kTookCapital,          // he took another player's Capital (15.65 #3)
  kRulerLeft,            // his Ruler conceded or was eliminated
};

enum class RollPurpose : std::uint8_t {
  kBombard,
  kPreBattleFire,
  kAttackerFire,
  kDefenderFire,
  kDoomsday,
  kDefenderPreFire,  // house rule Defending Artillery Pre-fire [12.3 step 0]
};

struct Event {
  EventKind kind = EventKind::kTurnStarted;
  int player = kNoPlayer;
  int other_player = kNoPlayer;
  int hex = -1;
  int from_hex = -1;
  int unit = -1;
  int other_unit = -1;
  UnitType unit_type = UnitType::kInfantry;
  Terrain terrain = Terrain::kNone;
  int value = 0;
  std::vector<int> dice;  // die faces, or the winners for kGameOver
  // A Battle's fire (kDiceRolled of the pre-battle, attacker or defender fire, and
  // kDiceAveraged): where its dice came from, Suppression and averaged pairs [12.3, 15.4].
  std::optional<FireDice> fire;
  // Random scheme 2 (kDiceRolled, kTileRevealed, kLandDrawn): the number in its stream of the
  // first value drawn for it; -1 when nothing was drawn (a re-reveal, scripted dice) or under
  // scheme 1. For the game record only: filter_events_for clears it and the JSON form leaves
  // it out, so no player learns how many tiles or dice were drawn out of his sight.
  std::int64_t draw = -1;
  friend bool operator==(const Event&, const Event&) = default;
};

inline Event make_event(EventKind kind) {
  Event e;
  e.kind = kind;
  return e;
}

std::string_view to_string(EventKind k);
std::string_view to_string(RollPurpose p);
std::optional<EventKind> event_kind_from_string(std::string_view s);
std::optional<RollPurpose> roll_purpose_from_string(std::string_view s);

}  // namespace viktory
