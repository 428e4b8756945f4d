// pread until n bytes are read, the file ends or an error other than EINTR.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuzk::util {

/* The bytes read into buf from offset off of fd (fewer than n: the file ended there), or -1 (errno says why). */
std::int64_t read_at(int fd, void* buf, std::size_t n, std::uint64_t off) noexcept;

}  // namespace cuzk::util
