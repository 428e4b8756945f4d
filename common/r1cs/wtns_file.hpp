// The iden3 witness file, .wtns version 2 (snarkjs src/wtns_utils.js):
// section 1 header (n8 u32, prime n8 bytes, nWitness u32), section 2 the
// values, n8 = 32 little-endian bytes each, in wire order (z[0] = 1). The
// prime (BLS12-381's or BN254's r) names the curve; a reader for the other
// curve refuses the file with a sentence naming both.
#pragma once

#include <filesystem>
#include <span>
#include <vector>

#include "curves/bn254.hpp"
#include "ff/fr.hpp"
#include "r1cs/input_file.hpp"

namespace cuzk::r1cs {

/* What the headers declare, after validating them and the section sizes
   (not the values); reads only the headers of a file. */
struct wtns_shape {
  curves::curve_id curve;
  std::uint64_t count;
};
wtns_shape read_wtns_shape(const byte_source& src);
inline std::uint64_t wtns_size(const byte_source& src) { return read_wtns_shape(src).count; }
std::uint64_t wtns_size(std::span<const std::uint8_t> bytes);

/* Validates and decodes into caller memory (a slot), reading a file a
   bounded chunk at a time; returns the count. capacity_error when out is too
   short, format_error for a bad file or one over another curve than C. */
template <class C = curves::bls12_381>
std::uint64_t read_wtns_into(const byte_source& src, std::span<ff::fr<C>> out);
template <class C = curves::bls12_381>
std::uint64_t read_wtns_into(std::span<const std::uint8_t> bytes, std::span<ff::fr<C>> out);

/* The first n values (n = n_public + 1: the constant one and the public
   signals), checked as read_wtns checks them, reading only those; format_error
   when the file holds fewer. */
template <class C = curves::bls12_381>
std::vector<ff::fr<C>> read_wtns_prefix(const byte_source& src, std::uint64_t n);

template <class C = curves::bls12_381>
std::vector<ff::fr<C>> read_wtns(const byte_source& src);
template <class C = curves::bls12_381>
std::vector<ff::fr<C>> read_wtns(std::span<const std::uint8_t> bytes);
template <class C = curves::bls12_381>
std::vector<ff::fr<C>> read_wtns_file(const std::filesystem::path& path);

template <class C = curves::bls12_381>
std::vector<std::uint8_t> write_wtns(std::span<const ff::fr<C>> z);

}  // namespace cuzk::r1cs
