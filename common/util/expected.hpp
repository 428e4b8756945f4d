// A small expected-style result (C++23's std::expected is not in C++20):
// either a value or an error, never an exception. The shared-memory layer
// returns these from every noexcept call (DESIGN §8, iceoryx's habit).
#pragma once

#include <type_traits>
#include <utility>
#include <variant>

namespace cuzk::util {

template <class E>
struct unexpected {
  E error;
};
template <class E>
unexpected(E) -> unexpected<E>;

template <class T, class E>
class [[nodiscard]] expected {
 public:
  expected(T value) noexcept(std::is_nothrow_move_constructible_v<T>) : v_(std::in_place_index<0>, std::move(value)) {}
  expected(unexpected<E> e) noexcept : v_(std::in_place_index<1>, e.error) {}

  bool has_value() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }
  /* Precondition: has_value(). */
  T& value() & noexcept { return *std::get_if<0>(&v_); }
  const T& value() const& noexcept { return *std::get_if<0>(&v_); }
  T&& value() && noexcept { return std::move(*std::get_if<0>(&v_)); }
  T& operator*() & noexcept { return value(); }
  const T& operator*() const& noexcept { return value(); }
  T* operator->() noexcept { return &value(); }
  const T* operator->() const noexcept { return &value(); }
  /* Precondition: !has_value(). */
  E error() const noexcept { return *std::get_if<1>(&v_); }

 private:
  std::variant<T, E> v_;
};

template <class E>
class [[nodiscard]] expected<void, E> {
 public:
  expected() noexcept = default;
  expected(unexpected<E> e) noexcept : ok_(false), e_(e.error) {}

  bool has_value() const noexcept { return ok_; }
  explicit operator bool() const noexcept { return ok_; }
  E error() const noexcept { return e_; }

 private:
  bool ok_ = true;
  E e_{};
};

}  // namespace cuzk::util
