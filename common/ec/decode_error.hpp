// Why a point encoding was refused, and the expected-style result decoders
// return (they never throw and never crash on any input).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <variant>

namespace cuzk::ec {

enum class decode_error : std::uint8_t {
  wrong_length,              // not the size of the encoding asked for
  bad_flags,                 // compression flag does not match, or sign flag set where it must be 0
  non_canonical_coordinate,  // a coordinate is >= p
  not_on_curve,              // (x, y) off the curve, or no y for a compressed x
  not_in_subgroup,           // on the curve but outside the order-r subgroup
  non_canonical_infinity,    // infinity flag set with other bits nonzero
};

constexpr std::string_view to_string(decode_error e) {
  switch (e) {
    case decode_error::wrong_length:
      return "wrong length";
    case decode_error::bad_flags:
      return "bad flag bits";
    case decode_error::non_canonical_coordinate:
      return "coordinate not below p";
    case decode_error::not_on_curve:
      return "point not on the curve";
    case decode_error::not_in_subgroup:
      return "point not in the prime-order subgroup";
    case decode_error::non_canonical_infinity:
      return "non-canonical encoding of infinity";
  }
  return "unknown decode error";
}

/* How much a decoder verifies beyond the encoding's own rules. */
enum class point_check : std::uint8_t {
  none,      // trust the bytes (keys this process wrote itself)
  on_curve,  // y^2 = x^3 + b
  subgroup,  // on the curve and in the order-r subgroup
};

template <class T>
class [[nodiscard]] decode_result {
 public:
  decode_result(T value) : v_(std::move(value)) {}
  decode_result(decode_error e) : v_(e) {}

  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  /* Precondition: has_value() (otherwise throws std::bad_variant_access). */
  const T& value() const { return std::get<0>(v_); }
  const T& operator*() const { return value(); }
  const T* operator->() const { return &value(); }
  /* Precondition: !has_value(). */
  decode_error error() const { return std::get<1>(v_); }

 private:
  std::variant<T, decode_error> v_;
};

}  // namespace cuzk::ec
