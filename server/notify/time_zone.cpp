#include "time_zone.h"

#include <algorithm>
#include <array>
#include <ctime>
#include <fstream>
#include <iterator>

namespace viktory::notify {
namespace {

std::int64_t big_endian(const std::string& data, std::size_t at, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    value = (value << 8) | static_cast<unsigned char>(data[at + static_cast<std::size_t>(i)]);
  }
  if (bytes == 4) return static_cast<std::int32_t>(static_cast<std::uint32_t>(value));
  return static_cast<std::int64_t>(value);
}

}  // namespace

bool TimeZone::plausible_name(std::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() == '/' || name.back() == '/') return false;
  if (name.find("..") != std::string_view::npos || name.find("//") != std::string_view::npos) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
           c == '_' || c == '-' || c == '+';
  });
}

TimeZone TimeZone::utc() {
  TimeZone zone;
  zone.name_ = "UTC";
  return zone;
}

std::optional<TimeZone> TimeZone::load(std::string_view name, const std::string& directory) {
  if (!plausible_name(name)) return std::nullopt;
  std::ifstream file(directory + "/" + std::string(name), std::ios::binary);
  if (!file) return std::nullopt;
  const std::string data((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  // RFC 8536: a 44-byte header, the version 1 data (32-bit times), and from version 2 on a
  // second header and the same data with 64-bit times, which is what we read.
  constexpr std::size_t kHeader = 44;
  if (data.size() < kHeader || data.compare(0, 4, "TZif") != 0) return std::nullopt;
  auto counts = [&](std::size_t at) {
    std::array<std::int64_t, 6> c{};
    for (std::size_t i = 0; i < 6; ++i) c[i] = big_endian(data, at + 20 + 4 * i, 4);
    return c;
  };
  auto block_size = [](const std::array<std::int64_t, 6>& c, int time_bytes) {
    const auto [isut, isstd, leap, time, type, chars] = c;
    return static_cast<std::size_t>(time * time_bytes + time + type * 6 + chars +
                                    leap * (time_bytes + 4) + isstd + isut);
  };
  std::size_t at = 0;
  int time_bytes = 4;
  std::array<std::int64_t, 6> c = counts(0);
  if (data[4] >= '2') {
    at = kHeader + block_size(c, 4);
    if (data.size() < at + kHeader || data.compare(at, 4, "TZif") != 0) return std::nullopt;
    c = counts(at);
    time_bytes = 8;
  }
  const std::int64_t time_count = c[3];
  const std::int64_t type_count = c[4];
  if (type_count < 1 || time_count < 0 || data.size() < at + kHeader + block_size(c, time_bytes)) {
    return std::nullopt;
  }
  const std::size_t times_at = at + kHeader;
  const std::size_t indices_at = times_at + static_cast<std::size_t>(time_count * time_bytes);
  const std::size_t types_at = indices_at + static_cast<std::size_t>(time_count);
  auto offset_of_type = [&](std::int64_t type) {
    return static_cast<std::int32_t>(
        big_endian(data, types_at + static_cast<std::size_t>(type) * 6, 4));
  };
  TimeZone zone;
  zone.name_ = std::string(name);
  zone.initial_offset_ = offset_of_type(0);
  for (std::int64_t i = 0; i < time_count; ++i) {
    const auto type = static_cast<unsigned char>(data[indices_at + static_cast<std::size_t>(i)]);
    if (type >= type_count) return std::nullopt;
    zone.transitions_.push_back(
        big_endian(data, times_at + static_cast<std::size_t>(i * time_bytes), time_bytes));
    zone.offsets_.push_back(offset_of_type(type));
  }
  return zone;
}

std::int64_t TimeZone::offset_at(std::int64_t utc_ms) const {
  const std::int64_t seconds = utc_ms >= 0 ? utc_ms / 1000 : (utc_ms - 999) / 1000;
  // The last transition at or before the moment. Past the last one listed (Debian's tzdata
  // lists them to 2037) its offset goes on.
  const auto it = std::upper_bound(transitions_.begin(), transitions_.end(), seconds);
  if (it == transitions_.begin()) return initial_offset_;
  return offsets_[static_cast<std::size_t>(std::distance(transitions_.begin(), it) - 1)];
}

LocalTime TimeZone::local(std::int64_t utc_ms) const {
  const std::int64_t seconds =
      (utc_ms >= 0 ? utc_ms / 1000 : (utc_ms - 999) / 1000) + offset_at(utc_ms);
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);  // the local wall clock is UTC shifted by the offset
  return LocalTime{tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_wday,
                   tm.tm_hour,        tm.tm_min,     name_};
}

}  // namespace viktory::notify
