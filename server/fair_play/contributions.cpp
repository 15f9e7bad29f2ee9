#include "contributions.h"

#include <algorithm>

#include "fair.h"

namespace viktory::server {

namespace fair = protocol::fair;
using nlohmann::json;

bool is_operator(const ContributionOptions& options, std::string_view name) {
  return !name.empty() && std::find(options.operators.begin(), options.operators.end(), name) !=
                              options.operators.end();
}

std::int64_t reveal_wait_ms(const ContributionOptions& options, const json& clock) {
  const std::int64_t per_move_seconds =
      clock.is_object() ? clock.value("per_move_seconds", std::int64_t{0}) : 0;
  if (per_move_seconds <= 0) return std::max(options.untimed_wait_ms, options.min_wait_ms);
  return std::max(per_move_seconds * 1000, options.min_wait_ms);
}

std::int64_t contribution_now_ms(const ContributionOptions& options) {
  return options.clock != nullptr ? options.clock->now_ms() : now_ms();
}

std::variant<std::string, Failure> read_commitment(const json& value) {
  const std::optional<fair::Digest> digest =
      value.is_string() ? fair::from_hex<32>(value.get<std::string>()) : std::nullopt;
  if (!digest) {
    return fail("bad_commitment",
                "field 'contribution_commitment' must be 64 hex digits: the SHA-256 of your "
                "contribution");
  }
  return fair::to_hex(*digest);
}

std::variant<std::string, Failure> optional_commitment(const json& msg) {
  const auto it = msg.find("contribution_commitment");
  if (it == msg.end() || it->is_null()) return std::string();
  return read_commitment(*it);
}

Outcome check_contribution(const json& value, const std::string& commitment_hex,
                           std::string& contribution_hex) {
  const std::optional<fair::Contribution> contribution =
      value.is_string() ? fair::from_hex<32>(value.get<std::string>()) : std::nullopt;
  if (!contribution) {
    return fail("bad_contribution", "field 'contribution' must be 64 hex digits (32 bytes)");
  }
  // The commitment is public, so comparing it in plain time tells nothing.
  if (fair::to_hex(fair::contribution_commitment(*contribution)) != commitment_hex) {
    return fail("wrong_contribution",
                "this contribution does not match your seat's commitment; nothing was changed");
  }
  contribution_hex = fair::to_hex(*contribution);
  return std::nullopt;
}

}  // namespace viktory::server
