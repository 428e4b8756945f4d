#include "requests/uploads.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "job/circuit_store.hpp"
#include "job/spec.hpp"
#include "proto/names.hpp"
#include "r1cs/binfile.hpp"
#include "r1cs/error.hpp"
#include "r1cs/input_file.hpp"
#include "r1cs/wtns_file.hpp"
#include "shm/shm_dir.hpp"
#include "shm/srs_region.hpp"
#include "util/fd_guard.hpp"
#include "util/hex.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

/* The first bytes of a file whose whole size is declared: a header parser
   reads what it needs from them, and anything past them is not there yet. */
class prefix_source final : public r1cs::byte_source {
 public:
  prefix_source(std::span<const std::uint8_t> prefix, std::uint64_t size) : prefix_(prefix), size_(size) {}
  std::uint64_t size() const override { return size_; }
  std::span<const std::uint8_t> view(std::uint64_t offset, std::size_t n, std::vector<std::uint8_t>&) const override {
    if (offset > prefix_.size() || n > prefix_.size() - offset)
      throw r1cs::format_error("wtns: its header does not fit the first chunk of the upload");
    return prefix_.subspan(offset, n);
  }

 private:
  std::span<const std::uint8_t> prefix_;
  std::uint64_t size_;
};

}  // namespace

std::vector<std::pair<std::string, proto::upload_kind>> named_uploads(const proto::submit& s) {
  std::vector<std::pair<std::string, proto::upload_kind>> out;
  if (const auto* c = std::get_if<proto::circom_work>(&s.work)) {
    if (c->wtns.starts_with(proto::upload_prefix))
      out.emplace_back(c->wtns.substr(proto::upload_prefix.size()), proto::upload_kind::wtns);
    if (c->r1cs && c->r1cs->starts_with(proto::upload_prefix))
      out.emplace_back(c->r1cs->substr(proto::upload_prefix.size()), proto::upload_kind::r1cs);
  }
  return out;
}

uploads::uploads(const server_options& opt, key_store& keys, const shm::job_table& jobs, outbox& out)
    : opt_(opt), keys_(keys), jobs_(jobs), out_(out), dir_(opt.uploads.spool_dir) {
  keep_inputs_files();
  if (dir_.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec || ::chmod(dir_.c_str(), 0700) != 0)
    throw std::runtime_error("cannot make the spool directory " + dir_.string() + ": " +
                             (ec ? ec.message() : std::string(std::strerror(errno))));
  // Files the jobs of a previous server still name stay (as those jobs'), the rest go.
  std::set<std::string> named;
  jobs_.for_each([&](shm::job_ref j, const shm::job_record& rec) {
    if (shm::job_word_state(rec) != shm::job_state::active) return;
    try {
      const auto sp = job::spec::from_json(std::string_view(rec.spec, rec.spec_len));
      for (const auto* f : {&sp.wtns, &sp.r1cs})
        if (!f->empty() && std::filesystem::path(*f).parent_path() == dir_) {
          named.insert(*f);
          // The job's again, and counted in its owner's quota until the job ends, as before the restart.
          adopt(rec.owner_uid, *f, f == &sp.wtns ? proto::upload_kind::wtns : proto::upload_kind::r1cs, j);
        }
    } catch (const std::exception&) {
    }
  });
  for (const auto& e : std::filesystem::directory_iterator(dir_, ec))
    if (!named.count(e.path().string())) std::filesystem::remove(e.path(), ec);
  spdlog::info("spool {}: clients may stream witnesses ({} file(s) of queued jobs kept)", dir_.string(), named.size());
}

// An installed circuit's inputs (job::store_inputs) a previous server's active jobs name are theirs again; the
// others go.
void uploads::keep_inputs_files() {
  std::set<std::string> named;
  jobs_.for_each([&](shm::job_ref j, const shm::job_record& rec) {
    if (shm::job_word_state(rec) != shm::job_state::active) return;
    try {
      const auto sp = job::spec::from_json(std::string_view(rec.spec, rec.spec_len));
      if (sp.inputs_file.empty() || !job::is_inputs_file(opt_.pool, sp.inputs_file)) return;
      named.insert(sp.inputs_file);
      adopt(rec.owner_uid, sp.inputs_file, proto::upload_kind::wtns, j);
    } catch (const std::exception&) {
    }
  });
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(shm::shm_dir(), ec))
    if (job::is_inputs_file(opt_.pool, e.path()) && !named.count(e.path().string()))
      std::filesystem::remove(e.path(), ec);
}

std::uint64_t uploads::bytes() const {
  std::uint64_t n = 0;
  for (const auto& [k, e] : files_) n += e.size;
  return n;
}

std::optional<std::string> uploads::admit(uid_t uid, const proto::upload& u) const {
  std::uint64_t held = 0;
  std::uint32_t open = 0, waiting = 0;
  for (const auto& [k, e] : files_)
    if (k.first == uid && k.second != u.upload_id) {
      held += e.size;
      open += !e.job && e.received < e.size;
      waiting += !e.job;
    }
  const auto& o = opt_.uploads;
  if (open >= o.max_open_per_client)
    return "you have " + std::to_string(open) + " uploads in progress, the limit per client is " +
           std::to_string(o.max_open_per_client);
  if (waiting >= o.max_files_per_client)
    return "you have " + std::to_string(waiting) + " spooled files no job names yet, the limit per client is " +
           std::to_string(o.max_files_per_client) + "; submit them (upload:ID) or wait until they expire";
  if (u.size > o.max_bytes_per_client || held > o.max_bytes_per_client - u.size)
    return "an upload of " + std::to_string(u.size) + " bytes beside the " + std::to_string(held) +
           " you have spooled passes the " + std::to_string(o.max_bytes_per_client) + " bytes allowed a client";
  return std::nullopt;
}

std::optional<std::string> uploads::unknown_key(const peer& p, const proto::upload& u) {
  if (!shm::is_key_id(u.zkey)) return "a witness upload names its key by id (32 hex digits), not by path";
  // Only a key the pool holds is loaded: an unknown id costs a lookup, never a parse on the pool or a log line.
  if (!keys_.nameable(p.cred, u.zkey) || (!keys_.has(u.zkey) && !shm::srs_region::open(opt_.pool, u.zkey)))
    return "the pool holds no key " + u.zkey + " (an operator installs keys with cuzk-shm load-srs)";
  return std::nullopt;
}

std::optional<std::string> uploads::check_witness_header(const proto::upload& u) {
  auto pk = keys_.ready(u.zkey);
  if (!pk) return std::nullopt;  // loading: the caller answers busy and the client sends the chunk again
  try {
    const auto span = std::span(reinterpret_cast<const std::uint8_t*>(u.data.data()), u.data.size());
    const auto w = r1cs::read_wtns_shape(prefix_source(span, u.size));
    const auto& k = pk.shape();
    if (w.curve != k.curve) return "the witness: " + r1cs::curve_mismatch("the witness", w.curve, k.curve);
    if (w.count != k.n_vars)
      return "the witness has " + std::to_string(w.count) + " values, the key expects " + std::to_string(k.n_vars) +
             " (witness of another circuit?)";
  } catch (const r1cs::format_error& e) {
    return std::string("not a valid .wtns: ") + e.what();
  }
  return std::nullopt;
}

void uploads::chunk(const peer& p, std::uint64_t rq, const proto::upload& u) {
  auto refuse = [&](proto::error_code code, const std::string& why) { out_.reply_error(p.to(), rq, code, why); };
  if (!enabled()) return refuse(proto::error_code::bad_request, "this server keeps no spool for uploads (--spool-dir)");
  const key k{p.cred.uid, u.upload_id};
  auto it = files_.find(k);
  if (u.offset == 0) {
    if (it != files_.end() && (it->second.job || it->second.claimed))
      return refuse(proto::error_code::conflict, "upload " + u.upload_id + " belongs to a job now; choose another id");
    if (u.kind == proto::upload_kind::wtns)
      if (auto why = unknown_key(p, u)) return refuse(proto::error_code::bad_request, *why);
    if (auto why = admit(p.cred.uid, u)) return refuse(proto::error_code::busy, *why);
    if (u.kind == proto::upload_kind::wtns) {
      if (auto why = check_witness_header(u)) return refuse(proto::error_code::bad_request, *why);
      if (!keys_.ready(u.zkey))
        return refuse(proto::error_code::busy, "the key " + u.zkey + " is being loaded; send again");
    }
    if (it != files_.end()) drop(it);
    const auto path = dir_ / (std::to_string(p.cred.uid) + "-" + util::to_hex(u.upload_id));
    it = files_.emplace(k, entry{path, u.kind, u.size, 0, std::chrono::steady_clock::now(), std::nullopt}).first;
  } else if (it == files_.end() || it->second.job || it->second.claimed || it->second.size != u.size ||
             it->second.kind != u.kind || u.offset != it->second.received) {
    return refuse(proto::error_code::bad_request,
                  it == files_.end()
                      ? "no upload " + u.upload_id + " in progress (send offset 0 first)"
                      : "upload " + u.upload_id + " expects offset " + std::to_string(it->second.received) + " of " +
                            std::to_string(it->second.size) + " bytes");
  }
  auto& e = it->second;
  util::fd_guard fd{::open(e.path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600)};
  if (fd.fd < 0 ||
      ::pwrite(fd.fd, u.data.data(), u.data.size(), static_cast<off_t>(u.offset)) != ssize_t(u.data.size())) {
    const std::string why = std::strerror(errno);
    drop(it);
    return refuse(proto::error_code::internal, "cannot write the spool (" + why + "); the upload is dropped");
  }
  e.received += u.data.size();
  e.last = std::chrono::steady_clock::now();
  out_.send(p.to(), proto::message{rq, proto::upload_ack{u.upload_id, e.received}});
}

util::expected<std::string, std::string> uploads::claim(uid_t uid, const std::string& id, proto::upload_kind kind) {
  auto it = files_.find({uid, id});
  if (it == files_.end()) return util::unexpected<std::string>("you have no upload " + id);
  auto& e = it->second;
  if (e.job || e.claimed) return util::unexpected<std::string>("upload " + id + " belongs to another job");
  if (e.kind != kind) return util::unexpected<std::string>("upload " + id + " is another kind of file");
  if (e.received < e.size)
    return util::unexpected<std::string>("upload " + id + " holds " + std::to_string(e.received) + " of its " +
                                         std::to_string(e.size) + " bytes");
  e.claimed = true;
  return e.path.string();
}

void uploads::release(uid_t uid, const std::string& id) {
  if (auto it = files_.find({uid, id}); it != files_.end()) {
    it->second.claimed = false;
    it->second.last = std::chrono::steady_clock::now();
  }
}

void uploads::consumed(uid_t uid, const std::string& id, shm::job_ref job) {
  if (auto it = files_.find({uid, id}); it != files_.end()) {
    it->second.job = job;
    it->second.claimed = false;
  }
}

void uploads::discard(uid_t uid, const std::string& id) {
  if (auto it = files_.find({uid, id}); it != files_.end()) drop(it);
}

std::filesystem::path uploads::cluster_file(std::int64_t cluster_id, proto::upload_kind kind) const {
  return dir_ / ("cluster-" + std::to_string(cluster_id) + "." + std::string(proto::name(kind)));
}

void uploads::adopt(uid_t owner, const std::filesystem::path& path, proto::upload_kind kind, shm::job_ref job) {
  std::error_code ec;
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  files_[{owner, "job:" + path.string()}] = {path, kind, ec ? 0 : size, ec ? 0 : size, std::chrono::steady_clock::now(),
                                             job};
}

void uploads::expire() {
  const auto now = std::chrono::steady_clock::now();
  for (auto it = files_.begin(); it != files_.end();) {
    auto& e = it->second;
    bool gone = false;
    if (e.claimed) {
      gone = false;
    } else if (e.job) {
      auto rec = jobs_.get(*e.job);
      gone = !rec || shm::job_word_state(**rec) != shm::job_state::active;
    } else if (e.received < e.size) {
      gone = now - e.last > opt_.uploads.stall;
      if (gone)
        spdlog::warn("upload {} of uid {}: no chunk for {} s; dropped at {} of {} bytes",
                     util::printable(it->first.second), it->first.first, opt_.uploads.stall.count(), e.received,
                     e.size);
    } else {
      gone = now - e.last > opt_.uploads.keep;
    }
    if (gone)
      drop(it++);
    else
      ++it;
  }
}

void uploads::drop(std::map<key, entry>::iterator it) {
  std::error_code ec;
  std::filesystem::remove(it->second.path, ec);
  files_.erase(it);
}

}  // namespace cuzk::server
