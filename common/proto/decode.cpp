// bytes → wire::Envelope → struct, refusing anything docs/protocol.md does
// not allow. Order: size, a scan of the top-level fields (protobuf itself
// would silently keep the last of two bodies), the parse, the version, the
// body, unknown fields anywhere, enum values, then check()'s field rules.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/reflection.h>
#include <google/protobuf/unknown_field_set.h>

#include "proto/codec.hpp"
#include "proto/cuzk.pb.h"
#include "proto/limits.hpp"
#include "proto/wire_map.hpp"
#include "util/names.hpp"

namespace cuzk::proto {

namespace {

using util::unexpected;
namespace pb = google::protobuf;

constexpr bool is_body_field(std::uint32_t f) {
  return (f >= 10 && f <= 15) || (f >= 20 && f <= 25) || (f >= 30 && f <= 37);
}

struct top_level {
  int bodies = 0;
  std::uint32_t unknown_field = 0;  // first unknown field number, 0 = none
  const char* broken = nullptr;     // why the wire format is not protobuf
};

bool read_varint(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && p < end; shift += 7) {
    const std::uint8_t b = *p++;
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

top_level scan(std::span<const std::uint8_t> frame) {
  top_level t;
  const std::uint8_t* p = frame.data();
  const std::uint8_t* end = p + frame.size();
  while (p < end) {
    std::uint64_t tag, n;
    if (!read_varint(p, end, tag)) return t.broken = "truncated field tag", t;
    const std::uint64_t field = tag >> 3;
    if (field == 0 || field > 0x1fffffff) return t.broken = "invalid field number", t;
    std::uint64_t skip;
    switch (tag & 7) {
      case 0:
        if (!read_varint(p, end, n)) return t.broken = "truncated varint", t;
        skip = 0;
        break;
      case 1:
        skip = 8;
        break;
      case 2:
        if (!read_varint(p, end, n)) return t.broken = "truncated length", t;
        skip = n;
        break;
      case 5:
        skip = 4;
        break;
      default:
        return t.broken = "unsupported wire type", t;
    }
    if (skip > static_cast<std::uint64_t>(end - p)) return t.broken = "field runs past the end of the frame", t;
    p += skip;
    if (is_body_field(static_cast<std::uint32_t>(field)))
      ++t.bodies;
    else if (field != 1 && field != 2 && field != 3 && t.unknown_field == 0)
      t.unknown_field = static_cast<std::uint32_t>(field);
  }
  return t;
}

/* The full name of the first message (this one or nested) that carries fields
   this version does not define, or nullptr. */
const std::string* with_unknown_fields(const pb::Message& m) {
  const pb::Reflection* r = m.GetReflection();
  if (!r->GetUnknownFields(m).empty()) return &m.GetDescriptor()->full_name();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const auto* f : fields) {
    if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (f->is_repeated()) {
      for (int i = 0; i < r->FieldSize(m, f); ++i)
        if (const auto* n = with_unknown_fields(r->GetRepeatedMessage(m, f, i))) return n;
    } else if (const auto* n = with_unknown_fields(r->GetMessage(m, f))) {
      return n;
    }
  }
  return nullptr;
}

// ---- wire → struct. An enum value outside the wire enum becomes 0 (or 255
// for priority), which check() then refuses with the field's full name; the
// narrowing into the structs' 8-bit enums never wraps a bad value into a good one.

template <class E>
E enum_value(int v, int lo, int hi) {
  return static_cast<E>(v < lo || v > hi ? 0 : v);
}

struct converter {
  std::optional<std::string> failure;

  submit from(const wire::Submit& w) {
    submit m;
    m.job_id = w.job_id();
    m.client = w.client();
    m.priority = proto::priority_from_wire(w.priority());
    m.partitions = w.partitions();
    m.zkey = w.zkey();
    if (w.has_native()) {
      m.work = native_work{w.native().circuit(), w.native().inputs_json()};
    } else if (w.has_circom()) {
      circom_work c{w.circom().wtns(), std::nullopt};
      if (w.circom().has_r1cs()) c.r1cs = w.circom().r1cs();
      m.work = std::move(c);
    } else if (w.has_installed()) {
      m.work = installed_work{w.installed().circuit(), w.installed().inputs_json()};
    } else if (!failure) {
      failure = "Submit.work: neither native, circom nor installed";
    }
    if (w.has_blinding()) m.blinding = blinding{w.blinding().r(), w.blinding().s()};
    return m;
  }
  status_request from(const wire::StatusRequest& w) {
    status_request m;
    if (w.has_job_id()) m.job_id = w.job_id();
    if (w.has_owner_uid()) m.owner_uid = w.owner_uid();
    m.capacity_only = w.capacity_only();
    m.cluster = w.cluster();
    return m;
  }
  fetch from(const wire::Fetch& w) {
    fetch m{w.job_id()};
    if (w.has_owner_uid()) m.owner_uid = w.owner_uid();
    return m;
  }
  cancel_request from(const wire::Cancel& w) {
    cancel_request m{w.job_id()};
    if (w.has_owner_uid()) m.owner_uid = w.owner_uid();
    return m;
  }
  wait_request from(const wire::Wait& w) {
    wait_request m{w.job_id(), w.timeout_ms()};
    if (w.has_owner_uid()) m.owner_uid = w.owner_uid();
    return m;
  }
  upload from(const wire::Upload& w) {
    return {w.upload_id(), enum_value<upload_kind>(w.kind(), 1, 2), w.size(), w.offset(), w.data(), w.zkey()};
  }
  upload_ack from(const wire::UploadAck& w) { return {w.upload_id(), w.received()}; }
  accepted from(const wire::Accepted& w) { return {w.job_id(), w.created(), enum_value<job_state>(w.state(), 1, 4)}; }
  job_status from(const wire::JobStatus& w) {
    job_status m;
    m.job_id = w.job_id();
    m.state = enum_value<job_state>(w.state(), 1, 4);
    m.error = w.error();
    m.submitted_ns = w.submitted_ns();
    m.finished_ns = w.finished_ns();
    m.priority = proto::priority_from_wire(w.priority());
    m.client = w.client();
    m.curve = enum_value<curves::curve_id>(w.curve(), 1, 2);
    m.partitions.reserve(static_cast<std::size_t>(w.partitions_size()));
    for (const auto& p : w.partitions()) m.partitions.push_back(from(p));
    return m;
  }
  partition_status from(const wire::PartitionStatus& p) {
    partition_status ps{enum_value<partition_state>(p.state(), 1, 6),
                        p.synth_start_ns(),
                        p.synth_end_ns(),
                        p.prove_start_ns(),
                        p.prove_end_ns(),
                        p.syntheses(),
                        p.attempts(),
                        std::nullopt,
                        p.gpu(),
                        p.witness_us()};
    if (p.has_timings()) ps.timings = proto::from_wire(p.timings());
    return ps;
  }
  proof_reply from(const wire::ProofReply& w) {
    proof_reply m;
    m.job_id = w.job_id();
    for (const auto& p : w.partitions()) {
      m.partitions.push_back({p.proof_json(), p.public_json(), std::nullopt});
      if (p.has_phases()) m.partitions.back().phases = from(p.phases());
    }
    return m;
  }
  status_reply from(const wire::StatusReply& w) {
    status_reply m;
    for (const auto& j : w.jobs()) m.jobs.push_back(from(j));
    for (const auto& s : w.slots())
      m.slots.push_back(
          {s.index(), s.class_index(), enum_value<slot_state>(s.state(), 1, 4), s.generation(), s.owner()});
    for (const auto& k : w.workers())
      m.workers.push_back(
          {k.lease(), k.name(), k.pid(), enum_value<worker_state>(k.state(), 1, 3), k.heartbeat_age_ms()});
    m.jobs_omitted = w.jobs_omitted();
    for (const auto& g : w.gpus()) m.gpus.push_back(proto::from_wire(g));
    m.hung_timeout_ms = w.hung_timeout_ms();
    for (const auto& k : w.keys()) m.keys.push_back({k.key_id(), k.host_copy(), k.host_bytes(), k.device_bytes()});
    if (w.has_capacity()) {
      const auto& c = w.capacity();
      capacity out;
      for (const auto& k : c.keys())
        out.keys.push_back({k.key_id(), proto::priority_from_wire(k.priority()), k.queued(), k.running()});
      for (const auto& k : c.classes())
        out.classes.push_back({k.class_index(), k.domain(), k.witness(), k.slots(), k.free()});
      for (const auto& k : c.circuits()) out.circuits.push_back({k.name(), k.generator(), k.key_id()});
      out.partitions_per_minute = c.partitions_per_minute();
      out.estimated_wait_s = c.estimated_wait_s();
      out.accepting = c.accepting();
      out.refusal = c.refusal();
      out.jobs_held = c.jobs_held();
      out.jobs_limit = c.jobs_limit();
      m.capacity = std::move(out);
    }
    if (w.has_cluster()) {
      const auto& c = w.cluster();
      cluster_view v{c.node(), c.database_up(), c.database_error(), c.dead_after_ms(), {}, c.queued()};
      for (const auto& n : c.nodes())
        v.nodes.push_back({n.name(),
                           n.alive(),
                           n.heartbeat_age_ms(),
                           n.claims(),
                           n.keys(),
                           {n.key_ids().begin(), n.key_ids().end()}});
      m.cluster = std::move(v);
    }
    return m;
  }
  error_reply from(const wire::Error& w) {
    return {enum_value<error_code>(w.code(), 1, 12), w.message(), w.request_id()};
  }
  ready from(const wire::Ready& w) { return {w.lease(), w.pid(), w.name(), w.capacity()}; }
  assign from(const wire::Assign& w) {
    return {w.slot(), w.generation(), w.job_index(), w.job_generation(), w.partition(), w.key_id(), w.spec()};
  }
  filled from(const wire::Filled& w) {
    return {w.slot(), w.generation(), w.synth_ns(), w.n_constraints(), w.n_witness()};
  }
  synth_failed from(const wire::SynthFailed& w) { return {w.slot(), w.generation(), w.error()}; }
  heartbeat from(const wire::Heartbeat& w) { return {w.lease(), w.slot(), w.generation()}; }
  bye from(const wire::Bye& w) { return {w.lease()}; }
  abort_synthesis from(const wire::Abort& w) { return {w.slot(), w.generation()}; }
  synth_aborted from(const wire::Aborted& w) { return {w.slot(), w.generation()}; }

  body from(const wire::Envelope& e) {
    using E = wire::Envelope;
    switch (e.body_case()) {
      case E::kSubmit:
        return from(e.submit());
      case E::kStatusRequest:
        return from(e.status_request());
      case E::kFetch:
        return from(e.fetch());
      case E::kWait:
        return from(e.wait());
      case E::kUpload:
        return from(e.upload());
      case E::kCancel:
        return from(e.cancel());
      case E::kAccepted:
        return from(e.accepted());
      case E::kJobStatus:
        return from(e.job_status());
      case E::kProofReply:
        return from(e.proof_reply());
      case E::kStatusReply:
        return from(e.status_reply());
      case E::kError:
        return from(e.error());
      case E::kUploadAck:
        return from(e.upload_ack());
      case E::kReady:
        return from(e.ready());
      case E::kAssign:
        return from(e.assign());
      case E::kFilled:
        return from(e.filled());
      case E::kSynthFailed:
        return from(e.synth_failed());
      case E::kHeartbeat:
        return from(e.heartbeat());
      case E::kBye:
        return from(e.bye());
      case E::kAbortSynthesis:
        return from(e.abort_synthesis());
      case E::kSynthAborted:
        return from(e.synth_aborted());
      case E::BODY_NOT_SET:
        break;
    }
    return bye{};  // unreachable: decode() handles BODY_NOT_SET first
  }
};

unexpected<decode_error> refuse(error_code code, std::string reason, std::uint64_t request_id = 0) {
  return unexpected<decode_error>{decode_error{code, std::move(reason), request_id}};
}

util::expected<message, decode_error> decode_frame(std::span<const std::uint8_t> frame) {
  if (frame.size() > max_frame_bytes)
    return refuse(error_code::too_large,
                  "frame of " + std::to_string(frame.size()) + " bytes, at most " + std::to_string(max_frame_bytes));
  if (frame.empty()) return refuse(error_code::malformed, "empty frame");
  const top_level t = scan(frame);
  if (t.broken) return refuse(error_code::malformed, std::string("not a protobuf Envelope: ") + t.broken);

  wire::Envelope e;
  if (!e.ParseFromArray(frame.data(), static_cast<int>(frame.size())))
    return refuse(error_code::malformed, "not a protobuf Envelope");
  const std::uint64_t id = e.request_id();
  if (e.version() != protocol_version)
    return refuse(error_code::unsupported_version,
                  "version " + std::to_string(e.version()) + ", this peer speaks " + std::to_string(protocol_version),
                  id);
  if (t.bodies == 0) {
    if (t.unknown_field)
      return refuse(error_code::unknown_message, "unknown message (field " + std::to_string(t.unknown_field) + ")", id);
    return refuse(error_code::unknown_message, "no message body", id);
  }
  if (t.bodies > 1) return refuse(error_code::malformed, "more than one message body", id);
  if (t.unknown_field)
    return refuse(error_code::malformed, "unknown Envelope field " + std::to_string(t.unknown_field), id);
  if (const std::string* where = with_unknown_fields(e))
    return refuse(error_code::malformed, "unknown field in " + *where, id);
  if (e.body_case() == wire::Envelope::BODY_NOT_SET) return refuse(error_code::malformed, "no message body", id);

  converter c;
  message m{id, c.from(e), e.on_behalf_of()};
  if (c.failure) return refuse(error_code::malformed, std::move(*c.failure), id);
  if (auto why = check(m)) return refuse(error_code::malformed, std::move(*why), id);
  if (e.has_on_behalf_of() && !util::is_plain_name(m.on_behalf_of))
    return refuse(error_code::malformed, "Envelope.on_behalf_of: not a client name (1-64 of A-Za-z0-9._-)", id);
  return m;
}

}  // namespace

util::expected<message, decode_error> decode(std::span<const std::uint8_t> frame) noexcept {
  try {
    return decode_frame(frame);
  } catch (const std::exception& ex) {  // bad_alloc: the only thing that can throw here
    return refuse(error_code::internal, std::string("decoder: ") + ex.what());
  }
}

}  // namespace cuzk::proto
