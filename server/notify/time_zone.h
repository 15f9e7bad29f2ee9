// Local time in a player's time zone, for the deadlines in notifications and the hour of his
// daily digest. The browser tells the zone's IANA name (Intl.DateTimeFormat().resolvedOptions()
// .timeZone); the offsets come from the system's time zone database (the TZif files of Debian's
// tzdata under /usr/share/zoneinfo), read with a small reader of our own: the C++ library of
// this compiler has no std::chrono::locate_zone yet.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace viktory::notify {

// A moment as a clock on the wall shows it in one zone.
struct LocalTime {
  int year = 1970;
  int month = 1;    // 1..12
  int day = 1;      // 1..31
  int weekday = 4;  // 0 = Sunday .. 6 = Saturday
  int hour = 0;
  int minute = 0;
  std::string zone;  // the IANA name ("Europe/Berlin"), or "UTC"
};

class TimeZone {
 public:
  // The zone of this IANA name, read from `directory`; nullopt when the name is not a zone's
  // (not of the form Area/Location made of letters, digits, '_', '-', '+', or no such file, or
  // not a TZif file).
  static std::optional<TimeZone> load(std::string_view name,
                                      const std::string& directory = "/usr/share/zoneinfo");
  static TimeZone utc();

  // Whether `name` may name a zone at all (checked before any file is opened).
  static bool plausible_name(std::string_view name);

  const std::string& name() const { return name_; }
  // Seconds east of UTC at the moment `utc_ms` (ms since the epoch).
  std::int64_t offset_at(std::int64_t utc_ms) const;
  LocalTime local(std::int64_t utc_ms) const;

 private:
  std::string name_;
  // Moments of change (seconds since the epoch, ascending) and the offset from each on.
  std::vector<std::int64_t> transitions_;
  std::vector<std::int32_t> offsets_;  // offsets_[i] from transitions_[i]
  std::int32_t initial_offset_ = 0;    // before the first transition
};

}  // namespace viktory::notify
