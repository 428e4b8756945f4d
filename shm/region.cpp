// Region creation, validation and removal. The region is the file NAME in
// the service's directory (shm_dir.hpp) or a file on hugetlbfs, opened
// directly so that O_NOFOLLOW and the owner checks of shm_file.hpp are
// explicit, and mapped with mmap; no allocator or in-memory mutex (DESIGN §3).
#include "shm/region.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>

#include "shm/layout_plan.hpp"
#include "shm/lease.hpp"
#include "shm/lock_file.hpp"
#include "shm/prefault.hpp"
#include "shm/shm_dir.hpp"
#include "shm/shm_file.hpp"

namespace cuzk::shm {

using detail::layout_plan;
using detail::mapping;

namespace {

void say(std::string* why, const std::string& s) {
  if (why) *why = s;
}

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1ULL << 30));
  return buf;
}

bool valid_name(std::string_view n) {
  if (n.empty() || n.size() > 200 || n == "." || n == "..") return false;
  for (char c : n)
    if (c == '/' || c == '\0') return false;
  return true;
}

std::string file_path(const region_location& loc) {
  return loc.hugepage_dir.empty() ? shm_path(loc.name) : loc.hugepage_dir + "/" + loc.name;
}

std::string lock_file_path(const region_location& loc) { return shm_path(loc.name + ".lock"); }

/* Free huge pages of this size (/sys/kernel/mm/hugepages); 0 when unknown. */
std::uint64_t free_hugepages(std::uint64_t page) {
  std::ifstream f("/sys/kernel/mm/hugepages/hugepages-" + std::to_string(page / 1024) + "kB/free_hugepages");
  std::uint64_t n = 0;
  return f >> n ? n : 0;
}

std::string describe_classes(const slot_class* cs, std::uint32_t n) {
  std::string s;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (i) s += ", ";
    s += std::to_string(cs[i].count) + "x" + std::to_string(cs[i].domain);
    if (cs[i].witness != cs[i].domain) s += ":w=" + std::to_string(cs[i].witness);
  }
  return s;
}

void remove_files(const region_location& loc) noexcept {
  ::unlink(file_path(loc).c_str());
  ::unlink(lock_file_path(loc).c_str());
}

/* Maps the region file read-write after the owner checks; not_found when it
   does not exist. */
result<mapping> map_file(const region_location& loc, std::string* why) noexcept {
  try {
    const std::string path = file_path(loc);
    auto fd = detail::open_checked(path, O_RDWR, "pool region", why);
    if (!fd) {
      if (fd.error() == error::not_found) say(why, "no region '" + loc.name + "' (" + path + " does not exist)");
      return unexpected(fd.error());
    }
    struct stat st {};
    if (::fstat(*fd, &st) != 0) {
      say(why, "cannot stat " + path + ": " + std::strerror(errno));
      ::close(*fd);
      return unexpected(error::os_error);
    }
    if (st.st_size < static_cast<off_t>(detail::header_bytes)) {
      ::close(*fd);
      say(why, "region '" + loc.name + "': the file holds " + std::to_string(st.st_size) +
                   " bytes, less than its header (field 'total_bytes' unreadable)");
      return unexpected(error::bad_size);
    }
    auto m = mapping::of(*fd, static_cast<std::size_t>(st.st_size), true, path, why);
    ::close(*fd);
    return m;
  } catch (...) {
    say(why, "cannot map " + file_path(loc));
    return unexpected(error::os_error);
  }
}

/* The header against the layout its own fields imply; names the first field
   that differs. */
result<void> validate(const region_header& h, std::uint64_t size, const std::string& name, std::string* why) {
  std::uint64_t magic = h.magic.load(std::memory_order_acquire);
  if (magic != region_magic) {
    say(why, "region '" + name + "': field 'magic' is " + hex(magic) + ", a cuzk pool has " + hex(region_magic));
    return unexpected(error::bad_magic);
  }
  if (h.version != layout_version) {
    say(why, "region '" + name + "': field 'version' is " + std::to_string(h.version) + ", this build reads " +
                 std::to_string(layout_version));
    return unexpected(error::bad_version);
  }
  if (h.total_bytes != size) {
    say(why, "region '" + name + "': field 'total_bytes' is " + std::to_string(h.total_bytes) + " but the file holds " +
                 std::to_string(size) + " bytes");
    return unexpected(error::bad_size);
  }
  auto bad = [&](const char* field, std::uint64_t has, std::uint64_t implied) {
    say(why, "region '" + name + "': field '" + field + "' is " + std::to_string(has) +
                 ", the header's slot classes imply " + std::to_string(implied));
    return unexpected(error::bad_layout_hash);
  };
  if (h.header_bytes != detail::header_bytes) return bad("header_bytes", h.header_bytes, detail::header_bytes);
  std::string inner;
  auto p = detail::plan_of(h, &inner);
  if (!p) {
    say(why, "region '" + name + "': " + inner);
    return unexpected(p.error());
  }
  if (h.n_slots != p->n_slots) return bad("n_slots", h.n_slots, p->n_slots);
  if (h.lease_offset != p->lease_offset) return bad("lease_offset", h.lease_offset, p->lease_offset);
  if (h.slot_offset != p->slot_offset) return bad("slot_offset", h.slot_offset, p->slot_offset);
  if (h.job_offset != p->job_offset) return bad("job_offset", h.job_offset, p->job_offset);
  if (h.payload_offset != p->payload_offset) return bad("payload_offset", h.payload_offset, p->payload_offset);
  for (std::uint32_t i = 0; i < h.n_classes; ++i) {
    const slot_class &c = h.classes[i], &q = p->classes[i];
    if (c.slot_bytes != q.slot_bytes) return bad("classes[].slot_bytes", c.slot_bytes, q.slot_bytes);
    if (c.first_slot != q.first_slot) return bad("classes[].first_slot", c.first_slot, q.first_slot);
    if (c.payload_offset != q.payload_offset)
      return bad("classes[].payload_offset", c.payload_offset, q.payload_offset);
  }
  if (h.layout_hash != p->hash) {
    say(why, "region '" + name + "': field 'layout_hash' is " + hex(h.layout_hash) + ", the header's slot classes (" +
                 describe_classes(h.classes, h.n_classes) + ") hash to " + hex(p->hash));
    return unexpected(error::bad_layout_hash);
  }
  if (p->end > size) return bad("total_bytes", h.total_bytes, p->end);
  return {};
}

/* Why create found the name taken, for the operator. */
void explain_existing(const region_location& loc, const layout_plan& want, std::string* why) noexcept {
  if (!why) return;
  try {
    std::string inner;
    auto r = region::open(loc, &inner);
    if (r) {
      const region_header& h = r->header();
      if (h.layout_hash == want.hash)
        *why = "region '" + loc.name + "' already exists (same layout: " + describe_classes(h.classes, h.n_classes) +
               "); destroy it first to recreate it";
      else
        *why = "region '" + loc.name + "' already exists with a different layout: it has slots " +
               describe_classes(h.classes, h.n_classes) + ", " + std::to_string(h.lease_capacity) + " leases, " +
               std::to_string(h.job_capacity) + " jobs; requested " + describe_classes(want.classes, want.n_classes) +
               ", " + std::to_string(want.lease_capacity) + " leases, " + std::to_string(want.job_capacity) +
               " jobs; destroy it first";
      return;
    }
    struct stat ls {};
    if (r.error() == error::access_denied)
      *why = "region '" + loc.name + "' already exists and is refused: " + inner;
    else if (r.error() == error::not_found && ::lstat(lock_file_path(loc).c_str(), &ls) == 0 && !S_ISREG(ls.st_mode))
      *why = "region '" + loc.name + "': " + lock_file_path(loc) + " already exists and is not a regular file " +
             "(a symbolic link or other object someone else made); remove it and create the pool again";
    else if (r.error() == error::not_found)
      *why = "region '" + loc.name + "': lock file " + lock_file_path(loc) +
             " already exists without a region (another create in progress, or one that was interrupted: "
             "cuzk-shm destroy --name " +
             loc.name + " --force removes it)";
    else
      *why = "region '" + loc.name + "' already exists and does not validate: " + inner;
  } catch (...) {
  }
}

}  // namespace

result<slot_class_config> parse_slot_class(std::string_view text) noexcept {
  auto number = [](std::string_view s, std::uint64_t& out) {
    if (auto caret = s.find('^'); caret != std::string_view::npos) {
      std::uint64_t b = 0, e = 0;
      if (!(s.substr(0, caret) == "2")) return false;
      auto es = s.substr(caret + 1);
      auto [p, ec] = std::from_chars(es.data(), es.data() + es.size(), e);
      if (ec != std::errc{} || p != es.data() + es.size() || e > 40) return false;
      b = 1;
      out = b << e;
      return true;
    }
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && p == s.data() + s.size();
  };
  slot_class_config c;
  std::string_view rest = text;
  std::string_view wpart;
  if (auto colon = rest.find(':'); colon != std::string_view::npos) {
    wpart = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
    if (wpart.substr(0, 2) != "w=" || !number(wpart.substr(2), c.witness) || c.witness == 0)
      return unexpected(error::bad_config);
  }
  auto x = rest.find('x');
  if (x == std::string_view::npos) return unexpected(error::bad_config);
  if (!number(rest.substr(0, x), c.count) || !number(rest.substr(x + 1), c.max_constraints))
    return unexpected(error::bad_config);
  if (c.count == 0 || c.max_constraints == 0) return unexpected(error::bad_config);
  return c;
}

struct region::impl {
  region_location loc;
  std::string lock_path;
  mapping map;
  int lock_fd = -1;
  ~impl() { detail::close_fd(lock_fd); }
};

region::region(impl* p) noexcept : p_(p) {}
region::region(region&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
region& region::operator=(region&& o) noexcept {
  if (this != &o) {
    delete p_;
    p_ = o.p_;
    o.p_ = nullptr;
  }
  return *this;
}
region::~region() { delete p_; }

region_header& region::header() const noexcept { return *reinterpret_cast<region_header*>(p_->map.data()); }
std::uint8_t* region::base() const noexcept { return static_cast<std::uint8_t*>(p_->map.data()); }
std::uint64_t region::size() const noexcept { return p_->map.size(); }
const region_location& region::location() const noexcept { return p_->loc; }
const std::string& region::lock_path() const noexcept { return p_->lock_path; }
int region::lock_fd() const noexcept { return p_->lock_fd; }

result<region> region::create(const region_config& cfg, std::string* why) noexcept {
  try {
    if (!valid_name(cfg.name)) {
      say(why, "invalid region name '" + cfg.name + "' (non-empty, no '/')");
      return unexpected(error::bad_config);
    }
    auto plan = detail::plan_layout(cfg.classes, cfg.lease_capacity, cfg.job_capacity, why);
    if (!plan) return unexpected(plan.error());
    auto access = detail::access_for_group(cfg.group, why);
    if (!access) return unexpected(access.error());
    if (auto d = make_shm_dir(*access, why); !d) return unexpected(d.error());
    region_location loc{cfg.name, cfg.hugepage_dir};
    const std::string dir = cfg.hugepage_dir.empty() ? shm_dir() : cfg.hugepage_dir;
    std::uint64_t total = plan->end, page = 4096;
    if (!cfg.hugepage_dir.empty()) {
      struct statfs sf {};
      if (::statfs(dir.c_str(), &sf) != 0 || sf.f_type != HUGETLBFS_MAGIC) {
        say(why, dir + " is not a hugetlbfs mount");
        return unexpected(error::bad_config);
      }
      page = static_cast<std::uint64_t>(sf.f_bsize);
      total = detail::round_up(total, page);
    }
    // Refuse up front rather than let posix_fallocate fill the filesystem
    // before it fails (tmpfs allocates page by page, then gives them back).
    struct statvfs sv {};
    if (::statvfs(dir.c_str(), &sv) == 0) {
      std::uint64_t avail = static_cast<std::uint64_t>(sv.f_bavail) * sv.f_frsize;
      /* a hugetlbfs mounted without size= reports no blocks: the limit is the free huge pages of its size */
      if (!cfg.hugepage_dir.empty() && sv.f_blocks == 0) avail = free_hugepages(page) * page;
      if (total > avail) {
        say(why, "region '" + cfg.name + "' needs " + std::to_string(total) + " bytes (" + gib(total) + ") but " + dir +
                     " has " + std::to_string(avail) + " bytes (" + gib(avail) + ") free");
        return unexpected(error::no_space);
      }
    }

    const std::string lock_path = lock_file_path(loc);
    int lfd = detail::create_lock_file(lock_path, *access, why);
    if (lfd < 0) {
      if (errno == EEXIST) {
        explain_existing(loc, *plan, why);
        return unexpected(error::already_exists);
      }
      return unexpected(errno == EACCES ? error::access_denied : error::os_error);
    }
    detail::try_lock(lfd, lock_byte_create);
    auto fail = [&](error e, const std::string& msg, bool region_made) {
      say(why, msg);
      if (region_made)
        remove_files(loc);
      else
        ::unlink(lock_path.c_str());
      detail::close_fd(lfd);
      return unexpected(e);
    };

    // O_CREAT | O_EXCL | O_NOFOLLOW on the region itself: of two creators, one wins.
    std::string inner;
    auto created = detail::create_file(file_path(loc), *access, "pool region", &inner);
    if (!created && created.error() == error::already_exists) {
      explain_existing(loc, *plan, why);
      std::string keep = why ? *why : std::string();
      return fail(error::already_exists, keep, false);
    }
    if (!created) return fail(created.error(), inner, false);
    const int fd = *created;
    struct fd_closer {
      int fd;
      ~fd_closer() { ::close(fd); }
    } closer{fd};

    if (::ftruncate(fd, static_cast<off_t>(total)) != 0)
      return fail(errno == ENOSPC || errno == EFBIG ? error::no_space : error::os_error,
                  "cannot size " + file_path(loc) + " to " + std::to_string(total) + " bytes: " + std::strerror(errno),
                  true);
    if (int rc = ::posix_fallocate(fd, 0, static_cast<off_t>(total)); rc != 0)
      return fail(rc == ENOSPC ? error::no_space : error::os_error,
                  "cannot allocate " + std::to_string(total) + " bytes (" + gib(total) + ") for region '" + cfg.name +
                      "' in " + dir + ": " + std::strerror(rc),
                  true);
    auto mapped = mapping::of(fd, total, true, file_path(loc), &inner);
    if (!mapped) return fail(error::os_error, inner, true);
    mapping map = std::move(*mapped);
    auto* base = static_cast<std::uint8_t*>(map.data());
    if (auto t = detail::prefault(base, total, cfg.touch_threads, page); !t)
      return fail(error::os_error, "pre-touching the region failed", true);

    auto& h = *reinterpret_cast<region_header*>(base);
    h.version = layout_version;
    h.header_bytes = detail::header_bytes;
    h.total_bytes = total;
    h.layout_hash = plan->hash;
    h.created_unix_ns = now_ns();
    h.epoch.store(0, std::memory_order_relaxed);
    h.n_classes = plan->n_classes;
    h.lease_capacity = plan->lease_capacity;
    h.n_slots = plan->n_slots;
    h.job_capacity = plan->job_capacity;
    h.lease_offset = plan->lease_offset;
    h.slot_offset = plan->slot_offset;
    h.job_offset = plan->job_offset;
    h.payload_offset = plan->payload_offset;
    h.hugepages = cfg.hugepage_dir.empty() ? 0 : 1;
    h.job_seq.store(1, std::memory_order_relaxed);
    for (std::uint32_t i = 0; i < plan->n_classes; ++i) h.classes[i] = plan->classes[i];
    // posix_fallocate zero-filled everything; only slot words and classes need values.
    auto* slots = reinterpret_cast<slot_entry*>(base + plan->slot_offset);
    for (std::uint32_t c = 0; c < plan->n_classes; ++c)
      for (std::uint64_t k = 0; k < plan->classes[c].count; ++k) {
        slot_entry& s = slots[plan->classes[c].first_slot + k];
        s.class_index = c;
        s.word.store(slot_word{slot_state::free, no_lease, 0}.pack(), std::memory_order_relaxed);
      }
    h.magic.store(region_magic, std::memory_order_release);  // published last
    detail::unlock(lfd, lock_byte_create);

    auto* p = new impl{loc, lock_path, std::move(map), lfd};
    return region(p);
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

result<region> region::open(const region_location& where, std::string* why) noexcept {
  try {
    if (!valid_name(where.name)) {
      say(why, "invalid region name '" + where.name + "'");
      return unexpected(error::bad_config);
    }
    if (auto d = check_shm_dir(false, why); !d) {
      if (d.error() == error::not_found) say(why, "no region '" + where.name + "' (" + shm_dir() + " does not exist)");
      return unexpected(d.error());
    }
    auto map = map_file(where, why);
    if (!map) return unexpected(map.error());
    std::uint64_t size = map->size();
    const std::string lock_path = lock_file_path(where);
    auto& h = *static_cast<region_header*>(map->data());
    if (h.magic.load(std::memory_order_acquire) == 0) {
      int fd = detail::open_lock_file(lock_path);
      bool creating = fd >= 0 && detail::first_locked(fd, lock_byte_create) >= 0;
      detail::close_fd(fd);
      say(why, creating ? "region '" + where.name + "' is still being created (field 'magic' not yet published)"
                        : "region '" + where.name +
                              "': field 'magic' is 0: its creator died before publishing the "
                              "header; destroy it and create it again");
      return unexpected(error::being_created);
    }
    if (auto v = validate(h, size, where.name, why); !v) return unexpected(v.error());
    std::string inner;
    int lfd = detail::open_lock_file(lock_path, &inner);
    if (lfd < 0) {
      const int err = errno;
      say(why, "region '" + where.name + "': " + inner);
      return unexpected(err == ENOENT ? error::not_found : err == EACCES ? error::access_denied : error::os_error);
    }
    return region(new impl{where, lock_path, std::move(*map), lfd});
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

result<void> region::destroy(const region_location& where, bool force, std::string* why) noexcept {
  try {
    if (!valid_name(where.name)) {
      say(why, "invalid region name '" + where.name + "'");
      return unexpected(error::bad_config);
    }
    if (auto d = check_shm_dir(true, why); !d) {
      if (d.error() == error::not_found) say(why, "no region '" + where.name + "' (" + shm_dir() + " does not exist)");
      return unexpected(d.error());
    }
    const std::string lock_path = lock_file_path(where);
    struct stat st {};
    bool has_region = ::stat(file_path(where).c_str(), &st) == 0;
    bool has_lock = ::stat(lock_path.c_str(), &st) == 0;
    if (!has_region && !has_lock) {
      say(why, "no region '" + where.name + "' (" + file_path(where) + " does not exist)");
      return unexpected(error::not_found);
    }
    if (!force && has_lock) {
      int fd = detail::open_lock_file(lock_path);
      if (fd < 0) {
        say(why, "cannot open " + lock_path + ": " + std::strerror(errno));
        return unexpected(error::os_error);
      }
      std::string live;
      std::uint64_t n = 0;
      auto r = region::open(where);
      for (std::uint64_t from = lock_byte_lease0, end = lock_byte_lease0 + max_leases; from < end;) {
        std::int64_t b = detail::first_locked(fd, from, end - from);
        if (b < 0) break;
        from = static_cast<std::uint64_t>(b) + 1;
        std::uint64_t i = static_cast<std::uint64_t>(b) - lock_byte_lease0;
        if (++n > 8) continue;
        live += live.empty() ? "" : ", ";
        if (r && i < r->header().lease_capacity) {
          const lease_entry& e = lease_entries(*r)[i];
          live += std::string(field_text(e.name)) + " (pid " + std::to_string(e.pid) + ")";
        } else {
          live += "lease " + std::to_string(i);
        }
      }
      bool server = detail::first_locked(fd, lock_byte_server) >= 0;
      bool creating = detail::first_locked(fd, lock_byte_create) >= 0;
      detail::close_fd(fd);
      if (n || server || creating) {
        std::string what = creating ? "it is being created" : std::to_string(n) + " live lease(s): " + live;
        if (server && !n) what = "a live server holds it";
        say(why, "region '" + where.name + "' is in use (" + what + "); stop those processes or use --force");
        return unexpected(error::live_leases);
      }
    }
    remove_files(where);
    return {};
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

std::vector<std::span<std::uint8_t>> region::payload_chunks(std::uint64_t max_chunk) const noexcept {
  std::vector<std::span<std::uint8_t>> out;
  try {
    const region_header& h = header();
    std::uint64_t start = h.payload_offset, len = 0;
    for (std::uint32_t c = 0; c < h.n_classes; ++c) {
      const slot_class& k = h.classes[c];
      for (std::uint64_t s = 0; s < k.count; ++s) {
        std::uint64_t off = k.payload_offset + s * k.slot_bytes;
        if (len && (off != start + len || len + k.slot_bytes > max_chunk)) {
          out.emplace_back(base() + start, len);
          start = off;
          len = 0;
        }
        if (!len) start = off;
        len += k.slot_bytes;
      }
    }
    if (len) out.emplace_back(base() + start, len);
  } catch (...) {
    out.clear();
  }
  return out;
}

result<void> region::prefault(unsigned threads) const noexcept {
  return detail::prefault(base(), size(), threads, header().hugepages ? payload_alignment : 4096);
}

}  // namespace cuzk::shm
