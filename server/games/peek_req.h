// The `req` of a message the Hub refuses before parsing it (a client over its rate limit must
// not cost a parse of up to 64 KiB): found by looking at a few bytes at each end of the text,
// never by reading it all.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace viktory::server {

// The integer `req` of a JSON object message when it is the object's first or last member, or
// its second after a short "type" member without escapes (the web client sends `req` last:
// {...payload, "type", "req"}; other clients usually first). Anything else, or a `req` that is
// not an integer, gives nothing. Looks at no more than kPeekBytes at each end, so a refused
// message costs the same whatever its size. Meant for a message that goes unparsed: on a message
// that is not valid JSON it may find a `req` where a parser would have refused the whole.
inline constexpr std::size_t kPeekBytes = 96;
std::optional<std::int64_t> peek_req(std::string_view text);

}  // namespace viktory::server
