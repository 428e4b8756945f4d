#include "client/plan/key_source.hpp"

#include <exception>

#include "circuits/registry.hpp"
#include "curves/dispatch.hpp"
#include "io/zkey.hpp"
#include "io/zkey_dims.hpp"
#include "io/zkey_setup.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::plan {

namespace {

key_input of_shape(const io::zkey_shape& s, std::string name, std::string source) {
  key_input k;
  k.name = std::move(name);
  k.source = std::move(source);
  k.dims = io::dims_of(s);
  k.n_public = s.n_public;
  k.zkey_bytes = s.bytes;
  k.n_coefs = s.n_coefs;
  k.native = s.native;
  return k;
}

}  // namespace

key_input key_from_file(const std::string& path) {
  try {
    return of_shape(io::read_zkey_shape_file(path), path, "file");
  } catch (const std::exception& e) {
    throw key_error("cannot read the key file " + path + ": " + e.what());
  }
}

key_input key_from_pool(const std::string& pool, const std::string& key_id) {
  if (!shm::is_key_id(key_id))
    throw key_error(key_id + " is neither a key id (32 hex digits) nor a readable .zkey file");
  if (pool.empty()) throw key_error("key id " + key_id + " names a key in a pool: give --pool NAME");
  std::string why;
  auto r = shm::srs_region::open(pool, key_id, &why);
  if (!r) {
    if (r.error() == shm::error::not_found) {
      std::string have;
      for (const std::string& id : shm::list_srs(pool)) have += (have.empty() ? "" : ", ") + id;
      throw key_error("no key " + key_id + " in pool '" + pool + "' (" +
                      (have.empty() ? std::string("it holds no keys") : "its keys: " + have) + ")");
    }
    throw key_error("cannot open key " + key_id + " of pool '" + pool +
                    "': " + (why.empty() ? std::string(shm::to_string(r.error())) : why));
  }
  try {
    key_input k = of_shape(io::read_zkey_shape(r->bytes()), key_id, "key id");
    k.installed = true;
    return k;
  } catch (const std::exception& e) {
    throw key_error("key " + key_id + " of pool '" + pool + "': " + e.what());
  }
}

key_input key_from_circuit(const std::string& spec, curves::curve_id curve) {
  try {
    return curves::visit(curve, [&](auto c) {
      using C = decltype(c);
      const auto circuit = circuits::make_circuit<C>(spec);
      /* pass 1 of the setup: sizes and coefficients counted, nothing else */
      const io::basic_zkey_setup<C> setup(*circuit, groth16::basic_toxic_waste<C>::from_seed("cuzk plan"),
                                          groth16::h_form::odd_coset);
      const io::zkey_layout& l = setup.layout();
      key_input k;
      k.name = spec;
      k.source = "circuit";
      k.dims = sizing::key_dims::of(C::id, l.n_vars, l.n_public, l.domain_size);
      k.n_public = l.n_public;
      k.constraints = setup.counts().constraints;
      k.zkey_bytes = l.size;
      k.n_coefs = l.n_coefs;
      k.native = l.native;
      return k;
    });
  } catch (const std::exception& e) {
    throw key_error("circuit " + spec + ": " + e.what());
  }
}

}  // namespace cuzk::plan
