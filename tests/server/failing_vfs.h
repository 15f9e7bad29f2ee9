// A real disk failure for tests: an SQLite VFS that wraps the default one and makes writes or
// fsyncs fail on demand. While a FailingVfs lives it is SQLite's default VFS, so a Store opened
// in a test goes through it without knowing; everything else is the real file system.
#pragma once

#include <functional>
#include <string>

namespace viktory::server::testing {

class FailingVfs {
 public:
  FailingVfs();   // registers itself as the default VFS
  ~FailingVfs();  // gives the default back
  FailingVfs(const FailingVfs&) = delete;
  FailingVfs& operator=(const FailingVfs&) = delete;

  // From now on every xSync fails with SQLITE_IOERR_FSYNC (what a COMMIT needs last).
  void fail_syncs(bool on);
  // The next `count` calls of xSync fail, later ones work (a disk that failed for a moment).
  void fail_next_syncs(int count);
  // From now on every xWrite fails with SQLITE_IOERR_WRITE.
  void fail_writes(bool on);
  // From now on main database files are opened read-only, as SQLite does by itself when the
  // operating system refuses to open them for writing.
  void open_read_only(bool on);
  // The next connection to begin a write (WAL mode: the moment it takes the WAL's write lock)
  // first runs `hook`, once. A hook that commits from another connection makes "another writer
  // committed since this connection's read began" happen at exactly that point: a connection
  // that still holds an older read then gets SQLITE_BUSY_SNAPSHOT, which no busy timeout cures.
  void before_next_write_lock(std::function<void()> hook);
  // How many calls were made to fail so far.
  int failures() const;
};

}  // namespace viktory::server::testing
