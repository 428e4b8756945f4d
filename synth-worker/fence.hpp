// Fencing a slot's payload before it is given back while a synthesis thread,
// which cannot be stopped, may still be writing into it: the pages become
// inaccessible to this process (mprotect PROT_NONE, rounded out to `page`),
// and a thread that touches them sleeps until the process exits (a SIGSEGV
// handler parks it) instead of writing into a slot that may already belong
// to another worker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::worker {

/* false: the range could not be protected (e.g. pages larger than `page`). */
bool fence(std::span<std::uint8_t> bytes, std::size_t page) noexcept;

}  // namespace cuzk::worker
