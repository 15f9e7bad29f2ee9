#include "failing_vfs.h"

#include <sqlite3.h>

#include <atomic>
#include <mutex>
#include <stdexcept>

namespace viktory::server::testing {
namespace {

sqlite3_vfs* real_vfs = nullptr;
sqlite3_vfs failing_vfs;
std::atomic<bool> fail_sync{false};
std::atomic<bool> fail_write{false};
std::atomic<bool> read_only{false};
std::atomic<int> syncs_to_fail{0};
std::atomic<int> failure_count{0};
std::mutex hook_mutex;
std::function<void()> write_lock_hook;

// Our file: the real VFS's file lives right behind it, in the same allocation.
struct File {
  sqlite3_file base;
  sqlite3_file* real;
};

sqlite3_file* real_of(sqlite3_file* f) { return reinterpret_cast<File*>(f)->real; }
const sqlite3_io_methods* methods_of(sqlite3_file* f) { return real_of(f)->pMethods; }

int x_close(sqlite3_file* f) { return methods_of(f)->xClose(real_of(f)); }
int x_read(sqlite3_file* f, void* buf, int n, sqlite3_int64 off) {
  return methods_of(f)->xRead(real_of(f), buf, n, off);
}
int x_write(sqlite3_file* f, const void* buf, int n, sqlite3_int64 off) {
  if (fail_write) {
    ++failure_count;
    return SQLITE_IOERR_WRITE;
  }
  return methods_of(f)->xWrite(real_of(f), buf, n, off);
}
int x_truncate(sqlite3_file* f, sqlite3_int64 size) {
  return methods_of(f)->xTruncate(real_of(f), size);
}
int x_sync(sqlite3_file* f, int flags) {
  int left = syncs_to_fail.load();
  while (left > 0 && !syncs_to_fail.compare_exchange_weak(left, left - 1)) {
  }
  if (fail_sync || left > 0) {
    ++failure_count;
    return SQLITE_IOERR_FSYNC;
  }
  return methods_of(f)->xSync(real_of(f), flags);
}
int x_file_size(sqlite3_file* f, sqlite3_int64* size) {
  return methods_of(f)->xFileSize(real_of(f), size);
}
int x_lock(sqlite3_file* f, int level) { return methods_of(f)->xLock(real_of(f), level); }
int x_unlock(sqlite3_file* f, int level) { return methods_of(f)->xUnlock(real_of(f), level); }
int x_check_reserved(sqlite3_file* f, int* out) {
  return methods_of(f)->xCheckReservedLock(real_of(f), out);
}
int x_file_control(sqlite3_file* f, int op, void* arg) {
  return methods_of(f)->xFileControl(real_of(f), op, arg);
}
int x_sector_size(sqlite3_file* f) { return methods_of(f)->xSectorSize(real_of(f)); }
int x_device(sqlite3_file* f) { return methods_of(f)->xDeviceCharacteristics(real_of(f)); }
int x_shm_map(sqlite3_file* f, int page, int size, int extend, void volatile** out) {
  if (methods_of(f)->iVersion < 2) return SQLITE_IOERR_SHMMAP;
  return methods_of(f)->xShmMap(real_of(f), page, size, extend, out);
}
int x_shm_lock(sqlite3_file* f, int offset, int n, int flags) {
  // WAL_WRITE_LOCK is lock number 0 of the shared-memory index.
  if (offset == 0 && flags == (SQLITE_SHM_LOCK | SQLITE_SHM_EXCLUSIVE)) {
    std::function<void()> hook;
    {
      std::lock_guard lock(hook_mutex);
      hook.swap(write_lock_hook);
    }
    if (hook) hook();
  }
  return methods_of(f)->xShmLock(real_of(f), offset, n, flags);
}
void x_shm_barrier(sqlite3_file* f) { methods_of(f)->xShmBarrier(real_of(f)); }
int x_shm_unmap(sqlite3_file* f, int del) { return methods_of(f)->xShmUnmap(real_of(f), del); }
int x_fetch(sqlite3_file* f, sqlite3_int64 off, int n, void** out) {
  if (methods_of(f)->iVersion < 3) {
    *out = nullptr;
    return SQLITE_OK;
  }
  return methods_of(f)->xFetch(real_of(f), off, n, out);
}
int x_unfetch(sqlite3_file* f, sqlite3_int64 off, void* p) {
  if (methods_of(f)->iVersion < 3) return SQLITE_OK;
  return methods_of(f)->xUnfetch(real_of(f), off, p);
}

const sqlite3_io_methods io_methods = {3,           x_close,          x_read,         x_write,
                                       x_truncate,  x_sync,           x_file_size,    x_lock,
                                       x_unlock,    x_check_reserved, x_file_control, x_sector_size,
                                       x_device,    x_shm_map,        x_shm_lock,     x_shm_barrier,
                                       x_shm_unmap, x_fetch,          x_unfetch};

int v_open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags, int* out_flags) {
  File* f = reinterpret_cast<File*>(file);
  f->real = reinterpret_cast<sqlite3_file*>(f + 1);
  if (read_only && (flags & SQLITE_OPEN_MAIN_DB) != 0) {
    flags = (flags & ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) | SQLITE_OPEN_READONLY;
  }
  const int rc = real_vfs->xOpen(real_vfs, name, f->real, flags, out_flags);
  f->base.pMethods = f->real->pMethods != nullptr ? &io_methods : nullptr;
  return rc;
}
int v_delete(sqlite3_vfs*, const char* name, int sync) {
  return real_vfs->xDelete(real_vfs, name, sync);
}
int v_access(sqlite3_vfs*, const char* name, int flags, int* out) {
  return real_vfs->xAccess(real_vfs, name, flags, out);
}
int v_full_pathname(sqlite3_vfs*, const char* name, int n, char* out) {
  return real_vfs->xFullPathname(real_vfs, name, n, out);
}
void* v_dl_open(sqlite3_vfs*, const char* name) { return real_vfs->xDlOpen(real_vfs, name); }
void v_dl_error(sqlite3_vfs*, int n, char* out) { real_vfs->xDlError(real_vfs, n, out); }
void (*v_dl_sym(sqlite3_vfs*, void* handle, const char* symbol))(void) {
  return real_vfs->xDlSym(real_vfs, handle, symbol);
}
void v_dl_close(sqlite3_vfs*, void* handle) { real_vfs->xDlClose(real_vfs, handle); }
int v_randomness(sqlite3_vfs*, int n, char* out) { return real_vfs->xRandomness(real_vfs, n, out); }
int v_sleep(sqlite3_vfs*, int micros) { return real_vfs->xSleep(real_vfs, micros); }
int v_current_time(sqlite3_vfs*, double* out) { return real_vfs->xCurrentTime(real_vfs, out); }
int v_last_error(sqlite3_vfs*, int n, char* out) {
  return real_vfs->xGetLastError(real_vfs, n, out);
}
int v_current_time64(sqlite3_vfs*, sqlite3_int64* out) {
  return real_vfs->xCurrentTimeInt64(real_vfs, out);
}

}  // namespace

FailingVfs::FailingVfs() {
  if (real_vfs != nullptr) throw std::logic_error("one FailingVfs at a time");
  real_vfs = sqlite3_vfs_find(nullptr);
  if (real_vfs == nullptr || real_vfs->iVersion < 2) throw std::runtime_error("no usable VFS");
  failing_vfs = sqlite3_vfs{};
  failing_vfs.iVersion = 2;
  failing_vfs.szOsFile = static_cast<int>(sizeof(File)) + real_vfs->szOsFile;
  failing_vfs.mxPathname = real_vfs->mxPathname;
  failing_vfs.zName = "viktory-failing";
  failing_vfs.xOpen = v_open;
  failing_vfs.xDelete = v_delete;
  failing_vfs.xAccess = v_access;
  failing_vfs.xFullPathname = v_full_pathname;
  failing_vfs.xDlOpen = v_dl_open;
  failing_vfs.xDlError = v_dl_error;
  failing_vfs.xDlSym = v_dl_sym;
  failing_vfs.xDlClose = v_dl_close;
  failing_vfs.xRandomness = v_randomness;
  failing_vfs.xSleep = v_sleep;
  failing_vfs.xCurrentTime = v_current_time;
  failing_vfs.xGetLastError = v_last_error;
  failing_vfs.xCurrentTimeInt64 = v_current_time64;
  fail_sync = false;
  fail_write = false;
  read_only = false;
  syncs_to_fail = 0;
  failure_count = 0;
  before_next_write_lock(nullptr);
  if (sqlite3_vfs_register(&failing_vfs, /*makeDflt=*/1) != SQLITE_OK) {
    real_vfs = nullptr;
    throw std::runtime_error("cannot register the failing VFS");
  }
}

FailingVfs::~FailingVfs() {
  sqlite3_vfs_unregister(&failing_vfs);
  sqlite3_vfs_register(real_vfs, /*makeDflt=*/1);
  real_vfs = nullptr;
}

void FailingVfs::fail_syncs(bool on) { fail_sync = on; }
void FailingVfs::fail_writes(bool on) { fail_write = on; }
void FailingVfs::fail_next_syncs(int count) { syncs_to_fail = count; }
void FailingVfs::open_read_only(bool on) { read_only = on; }
int FailingVfs::failures() const { return failure_count; }
void FailingVfs::before_next_write_lock(std::function<void()> hook) {
  std::lock_guard lock(hook_mutex);
  write_lock_hook = std::move(hook);
}

}  // namespace viktory::server::testing
