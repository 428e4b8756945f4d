// The iden3 witness file, .wtns version 2 (snarkjs src/wtns_utils.js):
// section 1 header (n8 u32, prime n8 bytes, nWitness u32), section 2 the
// values, n8 = 32 little-endian bytes each, in wire order (z[0] = 1).
#pragma once

#include <filesystem>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "r1cs/input_file.hpp"

namespace cuzk::r1cs {

/* The witness count the header declares, after validating the headers and
   section sizes (not the values); reads only the headers of a file. */
std::uint64_t wtns_size(const byte_source& src);
std::uint64_t wtns_size(std::span<const std::uint8_t> bytes);

/* Validates and decodes into caller memory (a slot), reading a file a
   bounded chunk at a time; returns the count. capacity_error when out is too
   short, format_error for a bad file. */
std::uint64_t read_wtns_into(const byte_source& src, std::span<ff::fr_t> out);
std::uint64_t read_wtns_into(std::span<const std::uint8_t> bytes, std::span<ff::fr_t> out);

/* The first n values (n = n_public + 1: the constant one and the public
   signals), checked as read_wtns checks them, reading only those; format_error
   when the file holds fewer. */
std::vector<ff::fr_t> read_wtns_prefix(const byte_source& src, std::uint64_t n);

std::vector<ff::fr_t> read_wtns(const byte_source& src);
std::vector<ff::fr_t> read_wtns(std::span<const std::uint8_t> bytes);
std::vector<ff::fr_t> read_wtns_file(const std::filesystem::path& path);

std::vector<std::uint8_t> write_wtns(std::span<const ff::fr_t> z);

}  // namespace cuzk::r1cs
