// Fencing a slot's payload before it is given back while a synthesis thread,
// which cannot be stopped, may still be writing into it: the pages become
// inaccessible to this process (mprotect PROT_NONE),
// and a thread that touches them sleeps until the process exits (a SIGSEGV
// handler parks it) instead of writing into a slot that may already belong
// to another worker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::worker {

/* bytes: whole pages of `page` bytes. false: the range could not be
   protected (not aligned, or mapped with larger pages). */
bool fence(std::span<std::uint8_t> bytes, std::size_t page) noexcept;

}  // namespace cuzk::worker
