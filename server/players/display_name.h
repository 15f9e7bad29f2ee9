// Display names: what a player may call himself (sign-up and renaming).
#pragma once

#include <optional>
#include <string>

namespace viktory::server {

// A display name: 1..32 code points after trimming spaces; no controls, no invisible or
// direction-changing characters (so nobody can make his name look like someone else's).
// nullopt when refused. `raw` is valid UTF-8 (it came through the JSON parser).
std::optional<std::string> clean_name(const std::string& raw);

}  // namespace viktory::server
